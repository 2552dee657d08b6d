package io.secio.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.protocol.SecioException;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The two calls a Netty user reaches for at the ends of a connection, on real sockets and every
 * transport: {@link Secio#shutdownOutput} ends the output after every byte written before it, even
 * 4 MiB flushed right before (and during the handshake), where a plain {@code shutdownOutput()}
 * cuts off what the codec had not sealed yet; {@link Secio#awaitHandshake} declares the handshake's
 * {@link SecioException}, so {@code catch (SecioException e)} compiles and sees its reason.
 */
class EndingAndAwaitingTest {
  private static final int BYTES = 4 * 1024 * 1024;
  private static final long GUARD_SECONDS = 300;

  private EventLoopGroup group;
  private Channel listener;
  private final SecioConfig serverConfig = TestConfigs.server().build();
  private final SecioConfig clientConfig = TestConfigs.client().build();
  private final CompletableFuture<byte[]> received = new CompletableFuture<>();

  static List<Transports> transports() {
    return LoopbackTest.transports();
  }

  /** Keeps what arrives until the peer's FIN. */
  private final class Collect extends ChannelInboundHandlerAdapter {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf buf = (ByteBuf) msg;
      try {
        byte[] b = new byte[buf.readableBytes()];
        buf.readBytes(b);
        bytes.writeBytes(b);
      } finally {
        buf.release();
      }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof ChannelInputShutdownEvent) {
        received.complete(bytes.toByteArray());
        ctx.close();
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      received.completeExceptionally(new IllegalStateException("closed after " + bytes.size()));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      received.completeExceptionally(cause);
    }
  }

  private void listen(Transports transport) {
    group = transport.newEventLoopGroup(2);
    listener = new ServerBootstrap().group(group).channel(transport.serverChannelClass())
        .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(Secio.server(serverConfig), new Collect());
          }
        })
        .bind(new InetSocketAddress("127.0.0.1", 0)).syncUninterruptibly().channel();
  }

  private Channel dial(Transports transport, PeerId expected) {
    return new Bootstrap().group(group).channel(transport.channelClass())
        .option(ChannelOption.ALLOW_HALF_CLOSURE, true)
        .handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(Secio.client(clientConfig, expected), new Discard());
          }
        })
        .connect(listener.localAddress()).syncUninterruptibly().channel();
  }

  /** Swallows what a client gets, and stops exceptions at the end of its pipeline. */
  private static final class Discard extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      io.netty.util.ReferenceCountUtil.release(msg);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {}
  }

  @BeforeEach
  void noGroupYet() {
    group = null;
  }

  @AfterEach
  void shutDown() {
    if (listener != null) {
      listener.close().syncUninterruptibly();
    }
    if (group != null) {
      group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  @ParameterizedTest
  @MethodSource("transports")
  void shutdownOutputEndsTheStreamAfterEveryByteWrittenBeforeIt(Transports transport) throws Exception {
    listen(transport);
    Channel client = dial(transport, serverConfig.localPeerId());
    byte[] data = new byte[BYTES];
    new Random(4).nextBytes(data);
    // Written and flushed while the handshake may still run, then the output ended at once.
    ChannelFuture write = client.writeAndFlush(Unpooled.wrappedBuffer(data));
    ChannelFuture ended = Secio.shutdownOutput(client);
    assertTrue(ended.await(GUARD_SECONDS, TimeUnit.SECONDS), "shutdownOutput did not complete");
    assertTrue(ended.isSuccess(), () -> String.valueOf(ended.cause()));
    assertTrue(write.isSuccess());
    assertArrayEquals(data, received.get(GUARD_SECONDS, TimeUnit.SECONDS));

    ChannelFuture late = client.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1}));
    assertTrue(late.await(GUARD_SECONDS, TimeUnit.SECONDS));
    assertFalse(late.isSuccess(), "a write after the output ended succeeded");
    client.close().syncUninterruptibly();
  }

  @ParameterizedTest
  @MethodSource("transports")
  void awaitHandshakeReturnsTheSessionOrThrowsItsSecioException(Transports transport) throws Exception {
    listen(transport);
    Channel good = dial(transport, serverConfig.localPeerId());
    SecioSession session = Secio.awaitHandshake(good);
    assertNotNull(session);
    assertEquals(serverConfig.localPeerId(), session.remotePeerId());
    good.close().syncUninterruptibly();

    Channel wrong = dial(transport, clientConfig.localPeerId());
    SecioException.Reason reason = null;
    try {
      Secio.awaitHandshake(wrong);
    } catch (SecioException e) {
      reason = e.reason();
    }
    assertEquals(SecioException.Reason.PEER_ID_MISMATCH, reason);
  }

  @ParameterizedTest
  @MethodSource("transports")
  void awaitingOnTheEventLoopIsRefusedRatherThanHanging(Transports transport) throws Exception {
    group = transport.newEventLoopGroup(1);
    try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 1,
        java.net.InetAddress.getByName("127.0.0.1"))) {
      Channel pending = new Bootstrap().group(group).channel(transport.channelClass())
          .handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              ch.pipeline().addLast(Secio.client(clientConfig), new Discard());
            }
          })
          .connect(silent.getLocalSocketAddress()).syncUninterruptibly().channel();
      java.util.concurrent.Future<?> onLoop = pending.eventLoop().submit(() -> Secio.awaitHandshake(pending));
      java.util.concurrent.ExecutionException e = assertThrows(java.util.concurrent.ExecutionException.class,
          () -> onLoop.get(GUARD_SECONDS, TimeUnit.SECONDS));
      assertTrue(e.getCause() instanceof io.netty.util.concurrent.BlockingOperationException, e.toString());
      pending.close().syncUninterruptibly();
    }
  }
}
