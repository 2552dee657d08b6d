package io.secio.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;

/**
 * The one place that knows which Netty runs: secio-netty is compiled against 4.2 and runs on 4.1 as
 * well. Only {@link NettyIo42} names what 4.1 lacks (its I/O handlers, {@code IoRegistration}, the
 * epoll interest guard), and it is loaded only when {@code io.netty.channel.IoHandlerFactory} is
 * there, so no 4.2-only class is ever loaded on 4.1. Everything else secio-netty uses exists in both.
 *
 * <p>This class itself is the 4.1 way, which 4.2 still offers but deprecates. Thread-safe.
 */
class NettyIo {
  /** The Netty on the class or module path, decided once. */
  static final NettyIo CURRENT = isNetty42() ? NettyIo42.create() : new NettyIo();

  NettyIo() {}

  private static boolean isNetty42() {
    try {
      Class.forName("io.netty.channel.IoHandlerFactory", false, NettyIo.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  /** A group of {@code threads} event loops (0: Netty's default) for {@code transport}. */
  EventLoopGroup newEventLoopGroup(Transports transport, int threads) {
    return transport == Transports.EPOLL ? Epoll.newEventLoopGroup(threads) : newNioGroup(threads);
  }

  @SuppressWarnings("deprecation") // 4.2 deprecates the group; on 4.1 it is the only one
  private static EventLoopGroup newNioGroup(int threads) {
    return new NioEventLoopGroup(threads);
  }

  /**
   * Apart, so that verifying NettyIo never loads the epoll classes, which are optional: a JDK 25
   * verifier loads a class that a method creates and returns, and fails where it is missing.
   */
  private static final class Epoll {
    @SuppressWarnings("deprecation") // as NIO's
    static EventLoopGroup newEventLoopGroup(int threads) {
      return new EpollEventLoopGroup(threads);
    }
  }

  /**
   * Protects the channel of {@code ctx} from Netty 4.2's epoll defect ({@link EpollInterestGuard}) if
   * it needs it; called on the channel's event loop when it is registered and when it becomes active.
   * Netty 4.1's epoll never takes an fd out of its epoll set while the channel is registered, so it
   * needs nothing.
   */
  void guardEpollInterest(ChannelHandlerContext ctx) {}
}
