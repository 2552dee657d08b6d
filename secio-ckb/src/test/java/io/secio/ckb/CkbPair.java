package io.secio.ckb;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * Two ends of a connection in memory, each an {@link EmbeddedChannel} with a socket address for the
 * other side (bans are per IP), bytes moved by {@link #pump()} and time moved by {@link #advance}.
 * Sessions run in tentacle's no-secio mode: secio is not what these tests are about.
 */
final class CkbPair implements AutoCloseable {
  static final InetSocketAddress DIALER_ADDRESS = new InetSocketAddress("203.0.113.7", 50000);
  static final InetSocketAddress LISTENER_ADDRESS = new InetSocketAddress("198.51.100.9", 8115);

  final EmbeddedChannel dialer;
  final EmbeddedChannel listener;

  CkbPair(ChannelHandler dialerHandler, ChannelHandler listenerHandler) {
    dialer = channel(LISTENER_ADDRESS, dialerHandler);
    listener = channel(DIALER_ADDRESS, listenerHandler);
  }

  /** Our dialer and our listener. */
  static CkbPair of(CkbConfig dialerConfig, CkbConfig listenerConfig) {
    return new CkbPair(Ckb.insecure(dialerConfig, true, null), Ckb.insecure(listenerConfig, false, null));
  }

  /** A channel whose peer is at {@code remote}. */
  static EmbeddedChannel channel(InetSocketAddress remote, ChannelHandler handler) {
    return new EmbeddedChannel(handler) {
      @Override
      protected SocketAddress remoteAddress0() {
        return remote;
      }
    };
  }

  /** Moves bytes both ways until neither side has more to say. */
  CkbPair pump() {
    boolean moved = true;
    while (moved) {
      dialer.runPendingTasks();
      listener.runPendingTasks();
      moved = move(dialer, listener) | move(listener, dialer);
    }
    return this;
  }

  /** Moves both sides' clocks on by {@code seconds}, pumping as their timers fire. */
  CkbPair advance(long seconds) {
    for (long s = 0; s < seconds; s++) {
      dialer.advanceTimeBy(1, TimeUnit.SECONDS);
      listener.advanceTimeBy(1, TimeUnit.SECONDS);
      pump();
    }
    return this;
  }

  private static boolean move(EmbeddedChannel from, EmbeddedChannel to) {
    boolean moved = false;
    for (Object msg; (msg = from.readOutbound()) != null; ) {
      moved = true;
      if (to.isOpen()) {
        to.writeInbound((ByteBuf) msg);
      } else {
        ((ByteBuf) msg).release();
      }
    }
    if (!from.isOpen() && to.isOpen()) {
      // The connection is one socket: its end is the other side's end too.
      to.close();
      moved = true;
    }
    return moved;
  }

  @Override
  public void close() {
    dialer.close();
    listener.close();
    pump();
    dialer.finishAndReleaseAll();
    listener.finishAndReleaseAll();
  }
}
