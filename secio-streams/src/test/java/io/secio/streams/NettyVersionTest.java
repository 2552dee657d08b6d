package io.secio.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.netty.util.Version;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The suite runs on the Netty the build resolved ({@code secio.netty.expected}, the pom's {@code
 * netty.version}: 4.2 by default, 4.1 when .ci/run passes {@code -Dnetty.version=4.1.137.Final}),
 * every Netty jar at that one version, so a run on 4.1 is not 4.2 by accident.
 */
class NettyVersionTest {
  private static final String EXPECTED = System.getProperty("secio.netty.expected");

  @Test
  void everyNettyJarIsTheExpectedVersion() {
    assertNotNull(EXPECTED, "secio.netty.expected is set by secio-streams' pom");
    Map<String, String> versions = new TreeMap<>();
    Version.identify().forEach((artifact, v) -> versions.put(artifact, v.artifactVersion()));
    assertEquals(versions.keySet().size(),
        versions.values().stream().filter(EXPECTED::equals).count(), versions::toString);
    assertEquals(EXPECTED, versions.get("netty-transport"), versions::toString);
  }
}
