package io.secio.streams.yamux;

import io.netty.util.concurrent.Promise;
import io.secio.streams.StreamChannel;
import io.secio.streams.StreamOpener;
import io.secio.streams.yamux.YamuxException.Reason;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * The streams this side opened that the peer has not ACKed yet, at most {@link
 * YamuxConfig#ackBacklog()} ({@code docs/STREAMS.md} §4.2), as go-yamux bounds them: an open beyond
 * the bound waits here until an ACK (or a close) makes room, and fails when the session ends first.
 *
 * <p>Not thread-safe: the connection's event loop.
 */
final class AckBacklog {
  private final int max;
  private int unacked;
  /** Opens waiting for room: an init, then its promise. */
  private ArrayDeque<Object> waiting;

  AckBacklog(int max) {
    this.max = max;
  }

  /** Whether an open now must wait. */
  boolean full() {
    return unacked >= max;
  }

  /** An open that waits for room. */
  void await(Consumer<? super StreamChannel> init, Promise<StreamChannel> promise) {
    if (waiting == null) {
      waiting = new ArrayDeque<>();
    }
    waiting.add(init);
    waiting.add(promise);
  }

  /** {@code stream} was opened here: it counts until the peer ACKs it. */
  void opened(YamuxStream stream) {
    stream.awaitingAck = true;
    unacked++;
  }

  /** {@code stream} was ACKed or closed: it counts no more, and opens that waited go while there is room. */
  @SuppressWarnings("unchecked")
  void settled(YamuxStream stream, StreamOpener opener) {
    if (!stream.awaitingAck) {
      return;
    }
    stream.awaitingAck = false;
    unacked--;
    while (waiting != null && !waiting.isEmpty() && !full()) {
      Consumer<? super StreamChannel> init = (Consumer<? super StreamChannel>) waiting.poll();
      opener.open(init, (Promise<StreamChannel>) waiting.poll());
    }
  }

  /** The session ended: every open still waiting fails. */
  @SuppressWarnings("unchecked")
  void failWaiting() {
    while (waiting != null && !waiting.isEmpty()) {
      waiting.poll();
      ((Promise<StreamChannel>) waiting.poll()).tryFailure(
          new YamuxException(Reason.SESSION_CLOSED, "the session ended before the stream could open"));
    }
  }
}
