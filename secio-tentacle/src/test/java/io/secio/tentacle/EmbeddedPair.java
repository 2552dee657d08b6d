package io.secio.tentacle;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;

/** Our dialer and our listener in tentacle's no-secio mode, bytes moved between them by hand. */
final class EmbeddedPair implements AutoCloseable {
  final EmbeddedChannel dialer;
  final EmbeddedChannel listener;
  final TentacleSession dialerSession;
  final TentacleSession listenerSession;

  EmbeddedPair(TentacleConfig dialerConfig, TentacleConfig listenerConfig) {
    dialer = new EmbeddedChannel(Tentacle.insecureClient(dialerConfig));
    listener = new EmbeddedChannel(Tentacle.insecureServer(listenerConfig));
    dialerSession = Tentacle.sessionFuture(dialer).getNow();
    listenerSession = Tentacle.sessionFuture(listener).getNow();
  }

  /** Moves bytes both ways until neither side has more to say. */
  void pump() {
    boolean moved = true;
    while (moved) {
      dialer.runPendingTasks();
      listener.runPendingTasks();
      moved = move(dialer, listener) | move(listener, dialer);
    }
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
