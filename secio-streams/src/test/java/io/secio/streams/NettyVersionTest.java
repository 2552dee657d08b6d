package io.secio.streams;

import io.secio.testsupport.NettyVersions;
import org.junit.jupiter.api.Test;

/**
 * The suite runs on the Netty the build resolved ({@code secio.netty.expected}, the pom's {@code
 * netty.version}: 4.2 by default, 4.1 when .ci/run passes {@code -Dnetty.version=4.1.137.Final}),
 * every Netty jar at that one version, so a run on 4.1 is not 4.2 by accident.
 */
class NettyVersionTest {
  @Test
  void everyNettyJarIsTheExpectedVersion() {
    NettyVersions.assertEveryJarIsExpected();
  }
}
