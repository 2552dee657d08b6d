package io.secio.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.secio.testsupport.NettyVersions;
import org.junit.jupiter.api.Test;

/**
 * The suite runs on the Netty the build says ({@code secio.netty.expected}: 4.2 by default, 4.1 under
 * {@code -Pnetty41}), every Netty jar at that one version, and secio-netty took the matching way in.
 */
class NettyVersionTest {
  @Test
  void everyNettyJarIsTheExpectedVersion() {
    NettyVersions.assertEveryJarIsExpected();
  }

  @Test
  void secioTakesTheWayOfThisNetty() {
    String expectedWay = NettyVersions.expected().startsWith("4.1.") ? "NettyIo" : "NettyIo42";
    assertEquals(expectedWay, NettyIo.CURRENT.getClass().getSimpleName());
  }
}
