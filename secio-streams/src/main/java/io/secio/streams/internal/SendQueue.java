package io.secio.streams.internal;

/**
 * The streams with bytes to send, oldest first, each at most once ({@code docs/STREAMS.md} §3). The
 * links live in the streams' {@link FlowState}s, so adding and taking allocate nothing, and a stream
 * that closes leaves at once, wherever it stands: a connection the peer does not read keeps no closed
 * stream alive here.
 *
 * <p>Not thread-safe: the connection's event loop.
 */
final class SendQueue {
  private FlowState head;
  private FlowState tail;

  /** Adds {@code s} at the end, unless it is queued already. */
  void add(FlowState s) {
    if (s.queued) {
      return;
    }
    s.queued = true;
    s.previous = tail;
    if (tail == null) {
      head = s;
    } else {
      tail.next = s;
    }
    tail = s;
  }

  /** Takes the oldest stream off the queue, or returns {@code null}. */
  FlowState poll() {
    FlowState s = head;
    if (s != null) {
      remove(s);
    }
    return s;
  }

  /** Takes {@code s} off the queue, if it is queued. */
  void remove(FlowState s) {
    if (!s.queued) {
      return;
    }
    if (s.previous == null) {
      head = s.next;
    } else {
      s.previous.next = s.next;
    }
    if (s.next == null) {
      tail = s.previous;
    } else {
      s.next.previous = s.previous;
    }
    s.previous = null;
    s.next = null;
    s.queued = false;
  }

  boolean isEmpty() {
    return head == null;
  }
}
