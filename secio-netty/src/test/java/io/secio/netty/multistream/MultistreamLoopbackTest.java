package io.secio.netty.multistream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.identity.KeyType;
import io.secio.netty.Secio;
import io.secio.netty.Transports;
import io.secio.testing.TestIdentities;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Two Java nodes over loopback TCP upgrading a connection as libp2p does: multistream-select picks
 * secio, secio runs, and inside it a second multistream-select picks a muxer id; then the application
 * bytes written before any of that finished arrive intact, and an echo crosses the whole stack.
 */
class MultistreamLoopbackTest {
  private static final String MUXER = "/mplex/6.7.0";
  private static final long WAIT_SECONDS = 300;

  private final SecioConfig clientConfig = SecioConfig.builder(TestIdentities.of(KeyType.ED25519)).build();
  private final SecioConfig serverConfig = SecioConfig.builder(TestIdentities.other(KeyType.ED25519)).build();

  /** Echoes plaintext once the inner negotiation is done. */
  private static final class Echo extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ctx.writeAndFlush(msg);
    }
  }

  /** Writes its greeting as soon as the channel is active, long before anything was negotiated. */
  private static final class EagerWriter extends ChannelInboundHandlerAdapter {
    final byte[] greeting;
    final ByteArrayOutputStream received = new ByteArrayOutputStream();
    final CompletableFuture<byte[]> echoed = new CompletableFuture<>();

    EagerWriter(byte[] greeting) {
      this.greeting = greeting;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      ctx.writeAndFlush(Unpooled.wrappedBuffer(greeting));
      ctx.fireChannelActive();
    }

    @Override
    public synchronized void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf buf = (ByteBuf) msg;
      received.writeBytes(ByteBufUtil.getBytes(buf));
      buf.release();
      if (received.size() >= greeting.length) {
        echoed.complete(received.toByteArray());
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      echoed.completeExceptionally(new IllegalStateException("closed after " + received.size() + " bytes"));
    }
  }

  @ParameterizedTest
  @MethodSource("io.secio.netty.LoopbackTest#transports")
  void secioAndAMuxerIdAreNegotiatedAndEarlyWritesArriveAfterThem(Transports transport) throws Exception {
    EventLoopGroup group = transport.newEventLoopGroup(1);
    try {
      BlockingQueue<Channel> accepted = new LinkedBlockingQueue<>();
      Channel listener = new ServerBootstrap()
          .group(group)
          .channel(transport.serverChannelClass())
          .childHandler(new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
              ch.pipeline().addLast(Multistream.secioResponder(serverConfig),
                  Multistream.responder(MUXER, null), new Echo());
              accepted.add(ch);
            }
          })
          .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
      byte[] greeting = new byte[100_000];
      new Random(7).nextBytes(greeting);
      EagerWriter app = new EagerWriter(greeting);
      Channel client = new Bootstrap()
          .group(group)
          .channel(transport.channelClass())
          .handler(new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
              ch.pipeline().addLast(Multistream.secioInitiator(clientConfig, serverConfig.localPeerId()),
                  Multistream.initiator(MUXER, null), app);
            }
          })
          .connect(listener.localAddress()).sync().channel();

      assertArrayEquals(greeting, app.echoed.get(WAIT_SECONDS, TimeUnit.SECONDS));
      assertEquals(MUXER, Multistream.negotiationFuture(client).getNow().name());
      SecioSession session = Secio.handshakeFuture(client).getNow();
      assertEquals(serverConfig.localPeerId(), session.remotePeerId());
      Channel child = accepted.poll(WAIT_SECONDS, TimeUnit.SECONDS);
      assertNotNull(child);
      assertEquals(clientConfig.localPeerId(), Secio.handshakeFuture(child).getNow().remotePeerId());
      assertEquals(MUXER, Multistream.negotiationFuture(child).getNow().name());
      client.close().sync();
      listener.close().sync();
    } finally {
      group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }
}
