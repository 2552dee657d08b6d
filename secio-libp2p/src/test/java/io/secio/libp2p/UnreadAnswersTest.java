package io.secio.libp2p;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.secio.SecioConfig;
import io.secio.identity.KeyType;
import io.secio.netty.multistream.Multistream;
import io.secio.streams.OpenResetPeer.Frames;
import io.secio.streams.OpenResetPeer;
import io.secio.streams.YamuxPongs;
import java.net.InetSocketAddress;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The answers a libp2p node writes for a hostile peer on loopback ({@code docs/STREAMS.md} §5, §10),
 * the peer speaking the muxer by hand after an honest secio handshake and multistream-select. A peer
 * that opens 100,000 streams, resets each at once and never reads, on yamux and on mplex, makes the
 * node write the multistream header of every inbound stream, and yamux its ACK too, into a connection
 * nobody reads. The live heap stays flat: a reset stream leaves every queue at once, and the node cuts
 * the peer off once it left {@code maxUnreadControlFrames} answers unread (the peer dials again). A
 * peer that reads gets every answer, however many one read provokes: 1,025 pings in one write. The sockets' buffers are
 * small both ways, so what the node cannot send stays in the node, and the peer cannot run far ahead
 * of what the node has read. After it, the node still serves.
 */
class UnreadAnswersTest {
  private static final SecioConfig SERVER = JavaNodes.secio(KeyType.ED25519);
  private static final SecioConfig CLIENT = JavaNodes.secio(KeyType.SECP256K1);
  private static final int PAIRS = 100_000;
  private static final int SOCKET_BUFFER_IN_BYTES = 16 * 1024;
  /** Far above what a bounded node adds late in the soak, far below what one kept stream per pair would. */
  private static final long MAX_RISE_IN_BYTES = 16L * 1024 * 1024;

  @AutoClose
  private static final JavaNodes nodes = new JavaNodes();

  private record Accepted(Channel channel, OpenResetPeer.Ended ended) {}

  /** Put in by multistream-select once the muxer is agreed: puts the peer's own handler last. */
  private static final class Agreed extends ChannelInboundHandlerAdapter {
    final CompletableFuture<Void> added = new CompletableFuture<>();
    private final ChannelHandler last;

    Agreed(ChannelHandler last) {
      this.last = last;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      ctx.pipeline().addLast(last);
      added.complete(null);
    }
  }

  /** A libp2p node of {@code config} on loopback with small socket buffers; what it accepts goes to {@code accepted}. */
  private static Channel listen(Libp2pConfig config, BlockingQueue<Accepted> accepted) throws InterruptedException {
    return new ServerBootstrap().group(nodes.group).channel(JavaNodes.TRANSPORT.serverChannelClass())
        .childOption(ChannelOption.SO_SNDBUF, SOCKET_BUFFER_IN_BYTES)
        .childOption(ChannelOption.SO_RCVBUF, SOCKET_BUFFER_IN_BYTES)
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            OpenResetPeer.Ended ended = new OpenResetPeer.Ended();
            ch.pipeline().addLast(Libp2p.server(SERVER, config), ended);
            accepted.add(new Accepted(ch, ended));
          }
        })
        .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
  }

  @ParameterizedTest
  @EnumSource(Muxer.class)
  void aPeerThatOpensAndResetsAHundredThousandStreamsAndNeverReadsLeavesTheLiveHeapFlat(Muxer muxer)
      throws Exception {
    Libp2pConfig config = Libp2pConfig.builder().muxers(muxer).build();
    BlockingQueue<Accepted> accepted = new LinkedBlockingQueue<>();
    Channel listener = listen(config, accepted);
    int port = ((InetSocketAddress) listener.localAddress()).getPort();
    try {
      OpenResetPeer.Result result = OpenResetPeer.run(() -> dialRaw(port, muxer, accepted, new OpenResetPeer.Ended(), false),
          muxer == Muxer.YAMUX ? Frames.YAMUX : Frames.MPLEX, PAIRS, 500, 10);
      System.out.println("open+reset soak, libp2p " + muxer + ": " + result);
      assertTrue(result.secondHalfRise() < MAX_RISE_IN_BYTES, result.toString());
      if (muxer == Muxer.YAMUX) {
        assertTrue(result.connections() > 1, "the node cut off a peer that left its ACKs unread");
      }
      Channel honest = nodes.dial(port, Libp2p.client(CLIENT, config, SERVER.localPeerId()));
      try {
        Libp2pSession session = Libp2pLoopbackTest.get(Libp2p.sessionFuture(honest));
        Libp2pLoopbackTest.get(session.ping());
      } finally {
        honest.close().sync();
      }
    } finally {
      listener.close().sync();
    }
  }

  @Test
  void aThousandAndTwentyFivePingsInOneWriteFromAPeerThatReadsAreAllAnswered() throws Exception {
    BlockingQueue<Accepted> accepted = new LinkedBlockingQueue<>();
    Channel listener = listen(Libp2pConfig.builder().muxers(Muxer.YAMUX).build(), accepted);
    try {
      YamuxPongs pongs = new YamuxPongs(1025);
      OpenResetPeer.Connection c = dialRaw(((InetSocketAddress) listener.localAddress()).getPort(), Muxer.YAMUX,
          accepted, pongs, true);
      pongs.pingAndAwait(c);
    } finally {
      listener.close().sync();
    }
  }

  /** secio and the muxer agreed by multistream-select, then {@code last}: the peer's own frames. */
  private static OpenResetPeer.Connection dialRaw(int port, Muxer muxer, BlockingQueue<Accepted> accepted,
      ChannelHandler last, boolean reads) throws Exception {
    Agreed agreed = new Agreed(last);
    Channel peer = new Bootstrap().group(nodes.group).channel(JavaNodes.TRANSPORT.channelClass())
        .option(ChannelOption.SO_RCVBUF, SOCKET_BUFFER_IN_BYTES)
        .option(ChannelOption.SO_SNDBUF, SOCKET_BUFFER_IN_BYTES)
        .handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(Multistream.secioInitiator(CLIENT, SERVER.localPeerId()),
                Multistream.initiator(muxer.protocolId(), agreed));
          }
        })
        .connect(new InetSocketAddress("127.0.0.1", port)).sync().channel();
    agreed.added.get(OpenResetPeer.GUARD_MINUTES, TimeUnit.MINUTES);
    peer.config().setAutoRead(reads);
    Accepted node = accepted.poll(OpenResetPeer.GUARD_MINUTES, TimeUnit.MINUTES);
    if (node == null) {
      throw new AssertionError("hang guard: the node accepted no connection");
    }
    return new OpenResetPeer.Connection(peer, node.channel(), node.ended());
  }
}
