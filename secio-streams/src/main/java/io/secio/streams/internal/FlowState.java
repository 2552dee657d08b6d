package io.secio.streams.internal;

/**
 * One stream's flow-control counters, owned by its connection's {@link FlowController}: the stream
 * holds this and never reads it. A muxer with credit subclasses it with its windows.
 *
 * <p>Not thread-safe: the connection's event loop.
 */
public class FlowState {
  final AbstractStreamChannel stream;
  /** Bytes received whose credit is not back: queued, or gone up the pipeline and not asked past. */
  long held;
  /** Of those, the bytes that went up the pipeline since it last asked for more. */
  long unreturned;
  /** In the controller's {@link SendQueue}, between these two. */
  boolean queued;
  FlowState previous;
  FlowState next;

  /**
   * The counters of {@code stream}, all zero.
   *
   * @param stream the stream they count for
   */
  public FlowState(AbstractStreamChannel stream) {
    this.stream = stream;
  }

  /** The stream these count for. */
  public final AbstractStreamChannel stream() {
    return stream;
  }

  /** Bytes the stream received whose credit is not back: what the peer may not send again yet. */
  public final long held() {
    return held;
  }
}
