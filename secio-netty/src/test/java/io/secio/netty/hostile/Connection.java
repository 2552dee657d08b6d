package io.secio.netty.hostile;

import io.netty.channel.Channel;
import io.netty.util.concurrent.Future;
import io.secio.SecioSession;
import io.secio.netty.Secio;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** One channel of the real node under test (accepted by a listener, or dialled), with its {@link App}. */
public final class Connection {
  public final Channel channel;
  public final App app;
  public final Future<SecioSession> handshake;
  /** When the channel was initialised, on {@link System#nanoTime()}. */
  public final long openedNanos;
  /** When it closed. */
  public final CompletableFuture<Long> closedNanos = new CompletableFuture<>();

  /** Call from the channel initializer, after the secio handlers were added. */
  public Connection(Channel channel, App app) {
    this.channel = channel;
    this.app = app;
    this.handshake = Secio.handshakeFuture(channel);
    this.openedNanos = System.nanoTime();
    channel.closeFuture().addListener(f -> closedNanos.complete(System.nanoTime()));
  }

  /** How long the channel was open; fails if it is still open after {@code seconds}. */
  public long openMillis(long seconds) throws Exception {
    return TimeUnit.NANOSECONDS.toMillis(closedNanos.get(seconds, TimeUnit.SECONDS) - openedNanos);
  }

  /**
   * Waits until the channel has closed and the events its close queued on the event loop (inactive,
   * unregistered, a completion event fired from either) have run, so that counts read afterwards are
   * final.
   */
  public void settle(long seconds) throws Exception {
    closedNanos.get(seconds, TimeUnit.SECONDS);
    for (int round = 0; round < 3; round++) {
      if (!channel.eventLoop().submit(() -> { }).await(seconds, TimeUnit.SECONDS)) {
        throw new AssertionError("event loop of " + channel + " is stuck");
      }
    }
  }

  @Override
  public String toString() {
    return channel.toString();
  }
}
