package io.secio.netty;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

/**
 * The TCP transports secio runs on: native epoll where it loads (Linux), NIO everywhere. Each gives
 * Netty 4.2 event loop groups and the channel classes for a {@code ServerBootstrap} and a {@code
 * Bootstrap}. {@link #best()} picks epoll when {@link Epoll#isAvailable()}.
 *
 * <p>Epoll is an optional dependency of {@code secio-netty}: to use it, add {@code
 * io.netty:netty-transport-native-epoll} with the classifier of your platform (for example {@code
 * linux-x86_64}). Without it, or without even its classes jar, epoll is simply unavailable.
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
    IoHandlerFactory ioHandlerFactory() {
      return NioIoHandler.newFactory();
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
    IoHandlerFactory ioHandlerFactory() {
      Epoll.ensureAvailability();
      return EpollIoHandler.newFactory();
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

  abstract IoHandlerFactory ioHandlerFactory();

  /**
   * A new event loop group of {@code threads} threads (0: Netty's default, twice the cores).
   *
   * @throws UnsatisfiedLinkError if this transport is not available here
   */
  public MultiThreadIoEventLoopGroup newEventLoopGroup(int threads) {
    return new MultiThreadIoEventLoopGroup(threads, ioHandlerFactory());
  }

  /** The listening channel class, for {@code ServerBootstrap.channel(...)}. */
  public abstract Class<? extends ServerChannel> serverChannelClass();

  /** The connected channel class, for {@code Bootstrap.channel(...)}. */
  public abstract Class<? extends SocketChannel> channelClass();
}
