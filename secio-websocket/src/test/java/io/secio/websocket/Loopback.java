package io.secio.websocket;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.util.ReferenceCountUtil;
import io.secio.netty.Transports;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Real sockets on loopback for the tests: one event loop group, listeners and dialers whose
 * pipelines a test builds, an echo and a byte collector. Close it to shut the group down.
 */
final class Loopback implements AutoCloseable {
  /** The hang guard of every wait, generous for a busy 2-core machine. */
  static final long WAIT_MINUTES = 3;

  private final EventLoopGroup group = Transports.best().newEventLoopGroup(2);

  /** A listener on 127.0.0.1, each accepted channel's pipeline built by {@code init}. */
  Channel listen(Consumer<Channel> init) {
    return new ServerBootstrap().group(group).channel(Transports.best().serverChannelClass())
        .childHandler(initializer(init))
        .bind("127.0.0.1", 0).syncUninterruptibly().channel();
  }

  /** A connection to {@code listener}, its pipeline built by {@code init} before it connects. */
  Channel dial(Channel listener, Consumer<Channel> init) {
    return new Bootstrap().group(group).channel(Transports.best().channelClass())
        .handler(initializer(init))
        .connect(listener.localAddress()).syncUninterruptibly().channel();
  }

  /** {@code ws://127.0.0.1:port/} of {@code listener}. */
  static URI uri(Channel listener) {
    return URI.create("ws://127.0.0.1:" + ((InetSocketAddress) listener.localAddress()).getPort() + "/");
  }

  private static ChannelInitializer<Channel> initializer(Consumer<Channel> init) {
    return new ChannelInitializer<>() {
      @Override
      protected void initChannel(Channel ch) {
        init.accept(ch);
      }
    };
  }

  @Override
  public void close() {
    group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** Writes back whatever it reads. */
  @ChannelHandler.Sharable
  static final class Echo extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ctx.writeAndFlush(msg);
    }
  }

  /**
   * Collects the bytes a connection reads, however they were cut, and the first failure it heard;
   * {@link #bytes(int)} waits for a number of them.
   */
  static final class Collect extends ChannelInboundHandlerAdapter {
    private final ByteArrayOutputStream read = new ByteArrayOutputStream();
    private final BlockingQueue<Integer> arrivals = new LinkedBlockingQueue<>();
    final CompletableFuture<Throwable> failure = new CompletableFuture<>();

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      byte[] b = ByteBufUtil.getBytes((ByteBuf) msg);
      ReferenceCountUtil.release(msg);
      synchronized (read) {
        read.writeBytes(b);
        arrivals.add(read.size());
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      failure.complete(cause);
      ctx.close();
    }

    /** The first {@code n} bytes read, once they have come. */
    byte[] bytes(int n) throws InterruptedException {
      while (true) {
        synchronized (read) {
          if (read.size() >= n) {
            byte[] all = read.toByteArray();
            return Arrays.copyOf(all, n);
          }
        }
        if (arrivals.poll(WAIT_MINUTES, TimeUnit.MINUTES) == null) {
          throw new AssertionError("fewer than " + n + " bytes in " + WAIT_MINUTES + " minutes");
        }
      }
    }
  }
}
