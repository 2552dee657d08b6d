package io.secio.consumercheck;

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
import io.netty.util.ReferenceCountUtil;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.netty.Secio;
import io.secio.netty.Transports;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A secio server and client on loopback TCP over {@link Transports#best()}, written only against the
 * exported API: the client handshakes, sends one message and waits for its echo.
 */
public final class LoopbackEcho {
  /** Only guards against a hang; a healthy run takes milliseconds. */
  private static final long GUARD_SECONDS = 300;

  /**
   * For the configs given to {@link #run}: the first handshake of a fresh JVM also self-tests every
   * backend, and on a busy CI machine that can outlast the default ten seconds.
   */
  public static final Duration HANDSHAKE_GUARD = Duration.ofSeconds(GUARD_SECONDS);

  private LoopbackEcho() {}

  /** What the client saw: its session and the bytes echoed back. */
  public record Outcome(SecioSession session, byte[] echoed) {}

  /** Runs one handshake and one echo of {@code message}; shuts its event loops down before returning. */
  public static Outcome run(SecioConfig server, SecioConfig client, byte[] message) throws Exception {
    Transports transport = Transports.best();
    EventLoopGroup group = transport.newEventLoopGroup(2);
    try {
      Channel listener = new ServerBootstrap()
          .group(group)
          .channel(transport.serverChannelClass())
          .childHandler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              ch.pipeline().addLast(Secio.server(server), new Echo());
            }
          })
          .bind(new InetSocketAddress("127.0.0.1", 0))
          .sync()
          .channel();
      Collector collector = new Collector(message.length);
      Channel ch = new Bootstrap()
          .group(group)
          .channel(transport.channelClass())
          .handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              ch.pipeline().addLast(Secio.client(client, server.localPeerId()), collector);
            }
          })
          .connect(listener.localAddress())
          .sync()
          .channel();
      try {
        SecioSession session = Secio.handshakeFuture(ch).get(GUARD_SECONDS, TimeUnit.SECONDS);
        ch.writeAndFlush(Unpooled.wrappedBuffer(message));
        return new Outcome(session, collector.echoed.get(GUARD_SECONDS, TimeUnit.SECONDS));
      } finally {
        ch.close().sync();
        listener.close().sync();
      }
    } finally {
      group.shutdownGracefully(0, GUARD_SECONDS, TimeUnit.SECONDS).sync();
    }
  }

  private static final class Echo extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ctx.writeAndFlush(msg);
    }
  }

  /** Completes once {@code expected} plaintext bytes have arrived, or with the first failure. */
  private static final class Collector extends ChannelInboundHandlerAdapter {
    final CompletableFuture<byte[]> echoed = new CompletableFuture<>();
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final int expected;

    Collector(int expected) {
      this.expected = expected;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      try {
        bytes.writeBytes(ByteBufUtil.getBytes((ByteBuf) msg));
      } finally {
        ReferenceCountUtil.release(msg);
      }
      if (bytes.size() >= expected) {
        echoed.complete(bytes.toByteArray());
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      echoed.completeExceptionally(cause);
      ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      echoed.completeExceptionally(new IllegalStateException("closed before the echo arrived"));
      ctx.fireChannelInactive();
    }
  }
}
