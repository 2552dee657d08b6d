package io.secio.websocket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.netty.util.Version;
import org.junit.jupiter.api.Test;

/**
 * This suite runs on the Netty the build resolved ({@code secio.netty.expected}: 4.2 by default, 4.1
 * when .ci/run passes {@code -Dnetty.version=4.1.137.Final}): the HTTP codec and the transport both.
 */
class NettyVersionTest {
  @Test
  void theHttpCodecAndTheTransportAreTheExpectedNetty() {
    String expected = System.getProperty("secio.netty.expected");
    assertNotNull(expected, "secio.netty.expected is set by secio-websocket's pom");
    assertEquals(expected, Version.identify().get("netty-codec-http").artifactVersion());
    assertEquals(expected, Version.identify().get("netty-transport").artifactVersion());
  }
}
