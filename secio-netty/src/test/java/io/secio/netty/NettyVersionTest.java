package io.secio.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.netty.util.Version;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The suite runs on the Netty the build says ({@code secio.netty.expected}: 4.2 by default, 4.1 under
 * {@code -Pnetty41}), every Netty jar at that one version, and secio-netty took the matching way in.
 */
class NettyVersionTest {
  private static final String EXPECTED = System.getProperty("secio.netty.expected");

  @Test
  void everyNettyJarIsTheExpectedVersion() {
    assertNotNull(EXPECTED, "secio.netty.expected is set by secio-netty's pom");
    Map<String, String> versions = new TreeMap<>();
    Version.identify().forEach((artifact, v) -> versions.put(artifact, v.artifactVersion()));
    assertEquals(versions.keySet().size(),
        versions.values().stream().filter(EXPECTED::equals).count(), versions::toString);
    assertEquals(EXPECTED, versions.get("netty-transport"), versions::toString);
  }

  @Test
  void secioTakesTheWayOfThisNetty() {
    String expectedWay = EXPECTED.startsWith("4.1.") ? "NettyIo" : "NettyIo42";
    assertEquals(expectedWay, NettyIo.CURRENT.getClass().getSimpleName());
  }
}
