package io.secio.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.Future;
import io.secio.HandshakeLimiter;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.frame.Frames;
import io.secio.protocol.SecioException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Secio added to a live channel from inside a read, as a protocol negotiation in front of it does: the
 * bytes read past the negotiation (here a fixed prefix) already hold the peer's Propose, and the
 * handshake must start from them rather than drop them.
 */
class MidStreamInstallTest {
  private static final byte[] PREFIX = "/secio/1.0.0\n".getBytes(StandardCharsets.US_ASCII);
  private static final long WAIT_SECONDS = 300;

  private final SecioConfig clientConfig = TestConfigs.client().build();
  private final SecioConfig serverConfig = TestConfigs.server().build();

  /** Writes {@link #PREFIX} in front of the first write (the Propose), once. */
  private static final class PrefixWriter extends ChannelOutboundHandlerAdapter {
    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
      ctx.write(Unpooled.wrappedBuffer(PREFIX));
      ctx.write(msg, promise);
      ctx.pipeline().remove(this);
    }
  }

  /**
   * Reads until it holds the prefix and a whole frame behind it, then, within that one read, adds
   * {@code secio} after itself, passes the leftover bytes on and removes itself.
   */
  private static final class PrefixThenSecio extends ChannelInboundHandlerAdapter {
    private final ChannelHandler secio;
    private ByteBuf held;

    PrefixThenSecio(ChannelHandler secio) {
      this.secio = secio;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      held = ctx.alloc().buffer();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
      if (held != null) {
        held.release();
        held = null;
      }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf in = (ByteBuf) msg;
      held.writeBytes(in);
      in.release();
      int frameEnd = PREFIX.length + Frames.HEADER_SIZE_IN_BYTES;
      if (held.readableBytes() < frameEnd
          || held.readableBytes() < frameEnd + held.getInt(PREFIX.length)) {
        return;
      }
      assertEquals(Unpooled.wrappedBuffer(PREFIX), held.readSlice(PREFIX.length));
      ctx.pipeline().addAfter(ctx.name(), null, secio);
      ByteBuf leftover = held;
      held = null;
      ctx.fireChannelRead(leftover);
      ctx.pipeline().remove(this);
    }
  }

  @Test
  void serverInstalledMidReadUsesTheProposeInTheLeftoverBytes() {
    Recorder clientApp = new Recorder();
    Recorder serverApp = new Recorder();
    EmbeddedPair p = new EmbeddedPair(
        new ChannelHandler[] {new PrefixWriter(), Secio.client(clientConfig, serverConfig.localPeerId()), clientApp},
        new ChannelHandler[] {new PrefixThenSecio(Secio.server(serverConfig)), serverApp});
    p.pump();
    assertSucceeded(Secio.handshakeFuture(p.client));
    assertSucceeded(Secio.handshakeFuture(p.server));
    assertEquals(1, serverApp.completions().size());
    assertTrue(serverApp.completions().get(0).isSuccess());

    p.client.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1, 2, 3}));
    p.pump();
    assertArrayEquals(new byte[] {1, 2, 3}, serverApp.received());
    p.close();
  }

  @Test
  void clientInstalledMidReadUsesTheProposeInTheLeftoverBytes() {
    // The dialling side of a negotiation: the listener's answer and its Propose arrive together.
    Recorder clientApp = new Recorder();
    EmbeddedPair p = new EmbeddedPair(
        new ChannelHandler[] {new PrefixThenSecio(Secio.client(clientConfig, serverConfig.localPeerId())), clientApp},
        new ChannelHandler[] {new PrefixWriter(), Secio.server(serverConfig), new Recorder()});
    p.pump();
    assertSucceeded(Secio.handshakeFuture(p.client));
    assertSucceeded(Secio.handshakeFuture(p.server));
    assertEquals(1, clientApp.completions().size());
    p.close();
  }

  @Test
  void aRefusalMidReadIsStillReportedToTheHandlersBehind() {
    SecioConfig bound = serverConfig.toBuilder().handshakeLimiter(HandshakeLimiter.of(1)).build();
    EmbeddedChannel holder = new EmbeddedChannel(Secio.server(bound), new Recorder());
    Recorder serverApp = new Recorder();
    EmbeddedPair p = new EmbeddedPair(
        new ChannelHandler[] {new PrefixWriter(), Secio.client(clientConfig), new Recorder()},
        new ChannelHandler[] {new PrefixThenSecio(Secio.server(bound)), serverApp});
    p.pump();
    Future<SecioSession> server = Secio.handshakeFuture(p.server);
    assertFalse(server.isSuccess());
    assertEquals(SecioException.Reason.TOO_MANY_HANDSHAKES,
        assertInstanceOf(SecioException.class, server.cause()).reason());
    assertEquals(1, serverApp.completions().size());
    assertFalse(p.server.isOpen());
    p.close();
    holder.releaseOutbound();
    holder.close();
    assertFalse(holder.finishAndReleaseAll());
  }

  @ParameterizedTest
  @MethodSource("io.secio.netty.LoopbackTest#transports")
  void onRealSocketsTheListenerInstalledMidReadCompletes(Transports transport) throws Exception {
    EventLoopGroup group = transport.newEventLoopGroup(1);
    try {
      BlockingQueue<Channel> accepted = new LinkedBlockingQueue<>();
      Channel listener = new ServerBootstrap()
          .group(group)
          .channel(transport.serverChannelClass())
          .childHandler(new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
              ch.pipeline().addLast(new PrefixThenSecio(Secio.server(serverConfig)), new Recorder());
              accepted.add(ch);
            }
          })
          .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
      Recorder clientApp = new Recorder();
      Channel client = new Bootstrap()
          .group(group)
          .channel(transport.channelClass())
          .handler(new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
              ch.pipeline().addLast(new PrefixWriter(), Secio.client(clientConfig, serverConfig.localPeerId()), clientApp);
            }
          })
          .connect(listener.localAddress()).sync().channel();

      Future<SecioSession> clientHandshake = Secio.handshakeFuture(client);
      assertTrue(clientHandshake.await(WAIT_SECONDS, TimeUnit.SECONDS), "hang guard");
      assertSucceeded(clientHandshake);
      Channel child = accepted.poll(WAIT_SECONDS, TimeUnit.SECONDS);
      Future<SecioSession> serverHandshake = Secio.handshakeFuture(child);
      assertTrue(serverHandshake.await(WAIT_SECONDS, TimeUnit.SECONDS), "hang guard");
      assertSucceeded(serverHandshake);
      client.close().sync();
      listener.close().sync();
    } finally {
      group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  private static void assertSucceeded(Future<SecioSession> handshake) {
    assertTrue(handshake.isDone(), "not done");
    assertTrue(handshake.isSuccess(), String.valueOf(handshake.cause()));
  }
}
