package io.secio.ckb.codec;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.compression.Snappy;
import io.secio.testsupport.NettyVersions;
import org.junit.jupiter.api.Test;

/**
 * The codec's tests run on the Netty the build says ({@code secio.netty.expected}: 4.2 by default,
 * 4.1 under {@code -Pnetty41}), every Netty jar at that version, Snappy taken from netty-codec-compression
 * on 4.2 and from netty-codec on 4.1.
 */
class SnappyJarTest {
  @Test
  void snappyComesFromTheExpectedNetty() {
    NettyVersions.assertEveryJarIsExpected("netty-codec");
    String expected = NettyVersions.expected();
    String jar = Snappy.class.getProtectionDomain().getCodeSource().getLocation().getPath();
    String artifact = expected.startsWith("4.1.") ? "netty-codec-" + expected : "netty-codec-compression-" + expected;
    assertTrue(jar.endsWith(artifact + ".jar"), jar);
  }
}
