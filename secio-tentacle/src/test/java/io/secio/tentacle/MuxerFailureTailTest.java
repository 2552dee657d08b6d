package io.secio.tentacle;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.netty.Transports;
import io.secio.testsupport.ChildProcess;
import io.secio.testsupport.TailWatch;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A connection-level yamux failure ends at the session's handler, not at Netty's tail, where each
 * would be a WARN with a stack trace in the node's log: 30 peers each complete an honest tentacle
 * session with a {@code Tentacle.server} listener that has no handler of the application's, then send
 * a yamux header of version 213 under their own yamux; the listener closes all 30 connections and not
 * one exception reaches the tail of any. ({@code HostileMuxerLogIT} counts the CLI listener's lines.)
 */
class MuxerFailureTailTest {
  private static final int CONNECTIONS = 30;
  private static final byte[] NOT_YAMUX = {(byte) 213, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  private static final Duration HANG_GUARD = ChildProcess.WAIT;
  private static final SecureRandom RANDOM = new SecureRandom();

  private static SecioConfig secio() {
    return SecioConfig.builder(IdentityKeyPair.generate(KeyType.SECP256K1, RANDOM)).dialect(Dialect.TENTACLE)
        .handshakeTimeout(HANG_GUARD).build();
  }

  @Test
  void thirtyConnectionsThatBreakYamuxLeaveNothingAtTheListenersTail() throws Exception {
    EventLoopGroup group = Transports.NIO.newEventLoopGroup(2);
    try {
      TailWatch watch = new TailWatch();
      SecioConfig server = secio();
      TentacleConfig config = TestProtocols.listener();
      Channel listener = watch.listen(group, () -> Tentacle.server(server, config));
      for (int i = 0; i < CONNECTIONS; i++) {
        Channel ch = new Bootstrap().group(group).channel(Transports.NIO.channelClass())
            .handler(Tentacle.client(secio(), TentacleConfig.builder().build(), server.localPeerId()))
            .connect(listener.localAddress()).sync().channel();
        Tentacle.sessionFuture(ch).get(HANG_GUARD.toMinutes(), TimeUnit.MINUTES);
        // From the yamux handler's place: through secio, under our own yamux.
        ch.pipeline().context(Tentacle.YAMUX_NAME).writeAndFlush(Unpooled.wrappedBuffer(NOT_YAMUX));
      }
      watch.assertEachClosedWithNothingAtTheTail(CONNECTIONS);
      listener.close().sync();
    } finally {
      group.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
    }
  }
}
