package io.secio.websocket;

import io.secio.testsupport.NettyVersions;
import org.junit.jupiter.api.Test;

/**
 * This suite runs on the Netty the build resolved ({@code secio.netty.expected}: 4.2 by default, 4.1
 * when .ci/run passes {@code -Dnetty.version=4.1.137.Final}): the HTTP codec and the transport both.
 */
class NettyVersionTest {
  @Test
  void theHttpCodecAndTheTransportAreTheExpectedNetty() {
    NettyVersions.assertEveryJarIsExpected("netty-codec-http");
  }
}
