package io.secio.libp2p;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.netty.Transports;
import io.secio.testsupport.ChildProcess;
import io.secio.testsupport.TailWatch;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A connection-level muxer failure ends at the session's handler, not at Netty's tail, where each
 * would be a WARN with a stack trace in the node's log: 30 peers each complete an honest libp2p
 * upgrade (secio, then the muxer) with a {@code Libp2p.server} listener that has no handler of the
 * application's, then send bytes that are no frame of that muxer under their own; the listener closes
 * all 30 connections and not one exception reaches the tail of any. For yamux, a header of version
 * 213; for mplex, a header of an unknown flag. ({@code HostileMuxerLogIT} counts the CLI listener's
 * lines.)
 */
class MuxerFailureTailTest {
  private static final int CONNECTIONS = 30;
  private static final byte[] NOT_YAMUX = {(byte) 213, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  /** An mplex header of stream 0 with flag 7, which mplex does not have, and an empty body. */
  private static final byte[] NOT_MPLEX = {7, 0};
  private static final SecureRandom RANDOM = new SecureRandom();

  private static SecioConfig secio() {
    return SecioConfig.builder(IdentityKeyPair.generate(KeyType.ED25519, RANDOM))
        .handshakeTimeout(ChildProcess.WAIT).build();
  }

  @ParameterizedTest
  @EnumSource(Muxer.class)
  void thirtyConnectionsThatBreakTheMuxerLeaveNothingAtTheListenersTail(Muxer muxer) throws Exception {
    EventLoopGroup group = Transports.NIO.newEventLoopGroup(2);
    try {
      TailWatch watch = new TailWatch();
      SecioConfig server = secio();
      Libp2pConfig config = Libp2pConfig.builder().muxers(Muxer.YAMUX, Muxer.MPLEX).build();
      Channel listener = watch.listen(group, () -> Libp2p.server(server, config));
      byte[] notAFrame = muxer == Muxer.YAMUX ? NOT_YAMUX : NOT_MPLEX;
      for (int i = 0; i < CONNECTIONS; i++) {
        Channel ch = new Bootstrap().group(group).channel(Transports.NIO.channelClass())
            .handler(Libp2p.client(secio(), Libp2pConfig.builder().muxers(muxer).build(), server.localPeerId()))
            .connect(listener.localAddress()).sync().channel();
        Libp2pLoopbackTest.get(Libp2p.sessionFuture(ch));
        // From the muxer's place: through secio, under our own muxer.
        ch.pipeline().context(Libp2p.MUXER_NAME).writeAndFlush(Unpooled.wrappedBuffer(notAFrame));
      }
      watch.assertEachClosedWithNothingAtTheTail(CONNECTIONS);
      listener.close().sync();
    } finally {
      group.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
    }
  }
}
