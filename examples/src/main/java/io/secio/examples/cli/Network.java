package io.secio.examples.cli;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.secio.netty.Transports;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The event loops of one command and the bootstraps that use them: native epoll where it loads, NIO
 * elsewhere. Accepted channels may be half-closed, so an echo can finish after its peer stops
 * sending. Closing shuts the loops down. Thread-safe.
 */
final class Network implements AutoCloseable {
  static final int CONNECT_TIMEOUT_MILLIS = 10_000;

  private final Transports transport = Transports.best();
  private final EventLoopGroup group;

  /** {@code threads} event loops; 0 for Netty's default. */
  Network(int threads) {
    group = transport.newEventLoopGroup(threads);
  }

  Transports transport() {
    return transport;
  }

  /** Binds a listener whose accepted channels {@code initializer} sets up; waits for the bind. */
  Channel listen(HostPort address, boolean autoRead, Consumer<Channel> initializer)
      throws InterruptedException {
    return new ServerBootstrap()
        .group(group)
        .channel(transport.serverChannelClass())
        .childOption(ChannelOption.AUTO_READ, autoRead)
        .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childHandler(initializer(initializer))
        .bind(address.host(), address.port())
        .sync()
        .channel();
  }

  /**
   * Starts a connection that {@code initializer} sets up. Its handlers are removed head first when the
   * channel goes, so that a handshake that never started still fails into them (see {@link
   * InOrderTeardown}).
   */
  ChannelFuture dial(HostPort address, boolean autoRead, Consumer<Channel> initializer) {
    return dial(bootstrap().group(group), address, autoRead, initializer);
  }

  /** Starts a connection on {@code sibling}'s event loop (a proxy's two sides share one thread). */
  ChannelFuture dialFrom(Channel sibling, HostPort address, boolean autoRead, Consumer<Channel> initializer) {
    // A relay carries a half-close across, so its upstream side must see one rather than a close.
    return dial(bootstrap().group(sibling.eventLoop()).option(ChannelOption.ALLOW_HALF_CLOSURE, true),
        address, autoRead, initializer);
  }

  private Bootstrap bootstrap() {
    return new Bootstrap().channel(transport.channelClass());
  }

  private static ChannelFuture dial(
      Bootstrap bootstrap, HostPort address, boolean autoRead, Consumer<Channel> initializer) {
    return bootstrap
        .option(ChannelOption.AUTO_READ, autoRead)
        .option(ChannelOption.TCP_NODELAY, true)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MILLIS)
        .handler(initializer(initializer.andThen(ch -> ch.pipeline().addLast(new InOrderTeardown()))))
        .connect(address.host(), address.port());
  }

  private static ChannelInitializer<Channel> initializer(Consumer<Channel> initializer) {
    return new ChannelInitializer<>() {
      @Override
      protected void initChannel(Channel ch) {
        initializer.accept(ch);
      }
    };
  }

  @Override
  public void close() {
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
