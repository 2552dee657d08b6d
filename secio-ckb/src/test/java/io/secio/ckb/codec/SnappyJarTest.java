package io.secio.ckb.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.compression.Snappy;
import io.netty.util.Version;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The codec's tests run on the Netty the build says ({@code secio.netty.expected}: 4.2 by default,
 * 4.1 under {@code -Pnetty41}), every Netty jar at that version, Snappy taken from netty-codec-compression
 * on 4.2 and from netty-codec on 4.1.
 */
class SnappyJarTest {
  private static final String EXPECTED = System.getProperty("secio.netty.expected");

  @Test
  void snappyComesFromTheExpectedNetty() {
    assertNotNull(EXPECTED, "secio.netty.expected is set by secio-ckb's pom");
    Map<String, String> versions = new TreeMap<>();
    Version.identify().forEach((artifact, v) -> versions.put(artifact, v.artifactVersion()));
    assertEquals(versions.size(), versions.values().stream().filter(EXPECTED::equals).count(), versions::toString);
    String jar = Snappy.class.getProtectionDomain().getCodeSource().getLocation().getPath();
    String artifact = EXPECTED.startsWith("4.1.") ? "netty-codec-" + EXPECTED : "netty-codec-compression-" + EXPECTED;
    assertTrue(jar.endsWith(artifact + ".jar"), jar);
  }
}
