package io.secio.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;

/**
 * Netty 4.2: event loops built from I/O handlers, epoll's wrapped by {@link EpollInterestGuard}.
 * Loaded only by {@link NettyIo#CURRENT} on 4.2. Thread-safe.
 */
final class NettyIo42 extends NettyIo {
  private NettyIo42() {}

  /** Declared as the base type, so that the caller's verification never needs this class on 4.1. */
  static NettyIo create() {
    return new NettyIo42();
  }

  @Override
  EventLoopGroup newEventLoopGroup(Transports transport, int threads) {
    return switch (transport) {
      case NIO -> new MultiThreadIoEventLoopGroup(threads, NioIoHandler.newFactory());
      case EPOLL -> new MultiThreadIoEventLoopGroup(threads,
          EpollInterestGuard.guarding(EpollIoHandler.newFactory()));
    };
  }

  @Override
  void guardEpollInterest(ChannelHandlerContext ctx) {
    EpollInterestGuard.install(ctx);
  }
}
