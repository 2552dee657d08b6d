package io.secio.netty;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

/**
 * The TCP transports secio runs on: native epoll where it loads (Linux), NIO everywhere. Each gives
 * event loop groups and the channel classes for a {@code ServerBootstrap} and a {@code Bootstrap}, on
 * Netty 4.2 and on 4.1 alike. {@link #best()} picks epoll when {@link Epoll#isAvailable()}.
 *
 * <p>On Netty 4.2, build epoll event loop groups here rather than with Netty's own constructors: the
 * groups made here carry the guard against a 4.2 epoll defect that can lose the end of a half-closed
 * stream, with no reflection, so also on the module path. secio guards a channel on a group made
 * elsewhere by reflection where it may, and logs a WARN once where it may not.
 *
 * <p>Epoll is an optional dependency of {@code secio-netty}: to use it, add {@code
 * io.netty:netty-transport-native-epoll} with the classifier of your platform (for example {@code
 * linux-x86_64}) and no version: {@code secio-bom} aligns it. Without it, or without even its classes
 * jar, epoll is simply unavailable.
 *
 * <p>Thread-safe; the groups it creates belong to the caller, who shuts them down.
 */
public enum Transports {
  /** Java NIO selectors: always available. */
  NIO {
    @Override
    public boolean isAvailable() {
      return true;
    }

    @Override
    public Class<? extends ServerChannel> serverChannelClass() {
      return NioServerSocketChannel.class;
    }

    @Override
    public Class<? extends SocketChannel> channelClass() {
      return NioSocketChannel.class;
    }
  },

  /** Linux native epoll: fewer copies and syscalls; needs the native library for this platform. */
  EPOLL {
    @Override
    public boolean isAvailable() {
      return EpollPresence.AVAILABLE;
    }

    @Override
    void ensureAvailability() {
      Epoll.ensureAvailability();
    }

    @Override
    public Class<? extends ServerChannel> serverChannelClass() {
      return EpollServerSocketChannel.class;
    }

    @Override
    public Class<? extends SocketChannel> channelClass() {
      return EpollSocketChannel.class;
    }
  };

  /** Asked once: without its classes jar, Epoll itself fails to link instead of answering false. */
  private static final class EpollPresence {
    static final boolean AVAILABLE = epollLoads();

    private static boolean epollLoads() {
      try {
        return Epoll.isAvailable();
      } catch (LinkageError e) { // netty-transport-classes-epoll left off the class path
        return false;
      }
    }
  }

  /** Epoll if it is available here, NIO otherwise. */
  public static Transports best() {
    return EPOLL.isAvailable() ? EPOLL : NIO;
  }

  /** Whether this transport works on this machine. */
  public abstract boolean isAvailable();

  /** Throws the reason this transport does not work here, if it does not. */
  void ensureAvailability() {}

  /**
   * A new event loop group of {@code threads} threads (0: Netty's default, twice the cores): on Netty
   * 4.2 a {@code MultiThreadIoEventLoopGroup}, on 4.1 this transport's own group.
   *
   * @throws UnsatisfiedLinkError if this transport is not available here
   */
  public EventLoopGroup newEventLoopGroup(int threads) {
    ensureAvailability();
    return NettyIo.CURRENT.newEventLoopGroup(this, threads);
  }

  /** The listening channel class, for {@code ServerBootstrap.channel(...)}. */
  public abstract Class<? extends ServerChannel> serverChannelClass();

  /** The connected channel class, for {@code Bootstrap.channel(...)}. */
  public abstract Class<? extends SocketChannel> channelClass();
}
