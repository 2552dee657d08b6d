package io.secio.websocket;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.secio.netty.Transports;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Real sockets on loopback for the tests: one event loop group, and listeners and dialers whose
 * pipelines a test builds. Close it to shut the group down.
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
}
