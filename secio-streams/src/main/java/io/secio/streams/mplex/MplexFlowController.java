package io.secio.streams.mplex;

import io.secio.streams.internal.AbstractStreamChannel;
import io.secio.streams.internal.FlowController;
import io.secio.streams.internal.FlowState;

/**
 * mplex's flow control, which mplex itself lacks ({@code docs/STREAMS.md} §9.3): no credit, so any
 * flushed byte may go, in frames of at most {@link MplexConfig#maxSendMessage()}; and in its place
 * bounds on what a stream holds unread, {@link MplexConfig#maxStreamBuffer()}, on what all streams
 * of the connection hold, {@link MplexConfig#maxSessionBuffer()}, and, with the node's {@link
 * MplexConfig#budget()}, on what all connections sharing it hold.
 *
 * <p>Not thread-safe: the connection's event loop.
 */
final class MplexFlowController extends FlowController<FlowState> {
  private final int maxSendMessage;
  private final int maxStreamBuffer;
  private final long maxSessionBuffer;

  MplexFlowController(MplexSession session, MplexFrameWriter writer, MplexConfig config) {
    super(session, writer, config.budget().orElse(null));
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

  /** Whether {@code length} more bytes fit in the node's budget, if there is one. */
  boolean fitsBudget(int length) {
    return budgetAvailable() >= length;
  }

  /** Whether the node's budget has anything left for a new stream. */
  boolean budgetLeft() {
    return budgetAvailable() > 0;
  }

  /** What the streams hold unread is what the connection draws from the node's budget. */
  @Override
  protected void heldChanged(long delta) {
    if (delta > 0) {
      budgetTake(delta);
    } else {
      budgetGive(-delta);
    }
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
