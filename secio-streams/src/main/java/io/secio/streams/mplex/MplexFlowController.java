package io.secio.streams.mplex;

import io.secio.streams.internal.AbstractStreamChannel;
import io.secio.streams.internal.FlowController;
import io.secio.streams.internal.FlowState;

/**
 * mplex's flow control, which mplex itself lacks ({@code docs/STREAMS.md} §9.3): no credit, so any
 * flushed byte may go, in frames of at most {@link MplexConfig#maxSendMessage()}; and in its place
 * bounds on what a stream holds unread, {@link MplexConfig#maxStreamBuffer()}, and on what all streams
 * of the connection hold, {@link MplexConfig#maxSessionBuffer()}.
 *
 * <p>Not thread-safe: the connection's event loop.
 */
final class MplexFlowController extends FlowController<FlowState> {
  private final int maxSendMessage;
  private final int maxStreamBuffer;
  private final long maxSessionBuffer;

  MplexFlowController(MplexSession session, MplexFrameWriter writer, MplexConfig config) {
    super(session, writer);
    this.maxSendMessage = config.maxSendMessage();
    this.maxStreamBuffer = config.maxStreamBuffer();
    this.maxSessionBuffer = config.maxSessionBuffer();
  }

  /** Whether {@code length} more bytes keep {@code stream} within its bound. */
  boolean fits(AbstractStreamChannel stream, int length) {
    return state(stream).held() + length <= maxStreamBuffer;
  }

  /** Whether {@code length} more bytes keep the connection's streams together within their bound. */
  boolean fitsSession(int length) {
    return heldByAll() + length <= maxSessionBuffer;
  }

  /** What {@code stream} holds unread: queued, or delivered and not yet asked past. */
  long held(AbstractStreamChannel stream) {
    return state(stream).held();
  }

  /** What all streams of the connection hold unread. */
  long heldBySession() {
    return heldByAll();
  }

  @Override
  protected FlowState newState(AbstractStreamChannel stream) {
    return new FlowState(stream);
  }

  @Override
  protected int sendCredit(FlowState state) {
    return maxSendMessage;
  }
}
