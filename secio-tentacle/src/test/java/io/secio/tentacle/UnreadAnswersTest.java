package io.secio.tentacle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.secio.Dialect;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.netty.Secio;
import io.secio.netty.Transports;
import io.secio.streams.OpenResetPeer;
import io.secio.streams.StreamChannel;
import io.secio.streams.YamuxPongs;
import io.secio.testsupport.Collect;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A peer that opens 100,000 streams on a tentacle node, resets each at once and never reads ({@code
 * docs/STREAMS.md} §5, §8): every stream makes the node write its yamux ACK into a connection nobody
 * reads. The live heap stays flat: the ACKs count against {@code maxUnreadControlFrames}, past which
 * the node cuts the peer off (the peer dials again, with a new key, as tentacle refuses a second
 * session of one). The sockets' buffers are small both ways, so what the node cannot send stays in
 * the node, and the peer cannot run far ahead of what the node has read.
 * After it, the node still serves.
 */
class UnreadAnswersTest {
  private static final int PAIRS = 100_000;
  private static final int SOCKET_BUFFER_IN_BYTES = 16 * 1024;
  /** Far above what a bounded node adds late in the soak, far below what one kept stream per pair would. */
  private static final long MAX_RISE_IN_BYTES = 16L * 1024 * 1024;
  private static EventLoopGroup group;

  @BeforeAll
  static void start() {
    group = Transports.best().newEventLoopGroup(2);
  }

  @AfterAll
  static void stop() {
    group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
  }

  private record Accepted(Channel channel, OpenResetPeer.Ended ended) {}

  private static SecioConfig secio(IdentityKeyPair identity) {
    return SecioConfig.builder(identity).dialect(Dialect.TENTACLE).build();
  }

  /** A tentacle node on loopback with small socket buffers; what it accepts goes to {@link #accepted}. */
  private static final class Node implements AutoCloseable {
    final IdentityKeyPair key = IdentityKeyPair.generate(KeyType.SECP256K1, new SecureRandom());
    final PeerId peerId = Dialect.TENTACLE.peerId(key.publicKey());
    final BlockingQueue<Accepted> accepted = new LinkedBlockingQueue<>();
    final Channel listener;
    final InetSocketAddress address;

    Node() throws InterruptedException {
      TentacleConfig config = TestProtocols.listener();
      listener = new ServerBootstrap().group(group).channel(Transports.best().serverChannelClass())
          .childOption(ChannelOption.SO_SNDBUF, SOCKET_BUFFER_IN_BYTES)
          .childOption(ChannelOption.SO_RCVBUF, SOCKET_BUFFER_IN_BYTES)
          .childHandler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              OpenResetPeer.Ended ended = new OpenResetPeer.Ended();
              ch.pipeline().addLast(Tentacle.server(secio(key), config), ended);
              accepted.add(new Accepted(ch, ended));
            }
          })
          .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
      address = (InetSocketAddress) listener.localAddress();
    }

    /** secio in the tentacle dialect with a new key, then {@code last}: the peer's own yamux frames. */
    OpenResetPeer.Connection dialRaw(ChannelHandler last, boolean reads) throws Exception {
      SecioConfig peer = secio(IdentityKeyPair.generate(KeyType.SECP256K1, new SecureRandom()));
      Channel ch = new Bootstrap().group(group).channel(Transports.best().channelClass())
          .option(ChannelOption.SO_RCVBUF, SOCKET_BUFFER_IN_BYTES)
          .option(ChannelOption.SO_SNDBUF, SOCKET_BUFFER_IN_BYTES)
          .handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel c) {
              c.pipeline().addLast(Secio.client(peer, peerId), last);
            }
          })
          .connect(address).sync().channel();
      Secio.handshakeFuture(ch).get(OpenResetPeer.GUARD_MINUTES, TimeUnit.MINUTES);
      ch.config().setAutoRead(reads);
      Accepted a = accepted.poll(OpenResetPeer.GUARD_MINUTES, TimeUnit.MINUTES);
      if (a == null) {
        throw new AssertionError("hang guard: the node accepted no connection");
      }
      return new OpenResetPeer.Connection(ch, a.channel(), a.ended());
    }

    @Override
    public void close() {
      listener.close().syncUninterruptibly();
    }
  }

  @Test
  void aPeerThatOpensAndResetsAHundredThousandStreamsAndNeverReadsLeavesTheLiveHeapFlat() throws Exception {
    try (Node n = new Node()) {
      OpenResetPeer.Result result = OpenResetPeer.run(() -> n.dialRaw(new OpenResetPeer.Ended(), false),
          OpenResetPeer.Frames.YAMUX, PAIRS, 500, 10);
      System.out.println("open+reset soak, tentacle yamux: " + result);
      assertTrue(result.secondHalfRise() < MAX_RISE_IN_BYTES, result.toString());
      assertTrue(result.connections() > 1, "the node cut off a peer that left its ACKs unread: " + result);
      Collect echoed = Collect.observing();
      Channel honest = new Bootstrap().group(group).channel(Transports.best().channelClass())
          .handler(Tentacle.client(secio(IdentityKeyPair.generate(KeyType.SECP256K1, new SecureRandom())),
              TentacleConfig.builder().protocol(TentacleProtocol.of(TestProtocols.ECHO, List.of("1"),
                  echoed)).build(), n.peerId))
          .connect(n.address).sync().channel();
      try {
        TentacleSession session = Tentacle.awaitSession(honest);
        StreamChannel echo = session.openStream(TestProtocols.ECHO, echoed).get(OpenResetPeer.GUARD_MINUTES,
            TimeUnit.MINUTES);
        echo.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1, 2, 3}));
        assertArrayEquals(new byte[] {1, 2, 3}, echoed.nextMessage());
      } finally {
        honest.close().sync();
      }
    }
  }

  @Test
  void aThousandAndTwentyFivePingsInOneWriteFromAPeerThatReadsAreAllAnswered() throws Exception {
    try (Node n = new Node()) {
      YamuxPongs pongs = new YamuxPongs(1025);
      pongs.pingAndAwait(n.dialRaw(pongs, true));
    }
  }
}
