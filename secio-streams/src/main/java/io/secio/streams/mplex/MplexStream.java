package io.secio.streams.mplex;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelPromise;
import io.secio.streams.internal.AbstractStreamChannel;

/**
 * One mplex stream: the child channel and the flags it writes with ({@code docs/STREAMS.md} §9.2).
 * mplex grants no credit, so any flushed byte may go, in frames of at most {@link
 * MplexConfig#maxSendMessage()}.
 *
 * <p>Not thread-safe: the connection's event loop.
 */
final class MplexStream extends AbstractStreamChannel {
  private final MplexSession session;

  MplexStream(MplexSession session, long streamId, boolean initiator) {
    super(session, streamId, initiator);
    this.session = session;
  }

  @Override
  protected void writeData(ByteBuf data, ChannelPromise promise) {
    session.writeData(this, data, promise);
  }

  @Override
  protected void writeEnd(ChannelPromise promise) {
    session.writeFrame(streamId(), MplexFrames.close(isInitiator()), promise);
  }

  @Override
  protected void writeReset() {
    session.writeFrame(streamId(), MplexFrames.reset(isInitiator()), session.quietPromise());
  }

  @Override
  protected int sendCredit() {
    return session.config.maxSendMessage();
  }

  @Override
  protected void consumed(int bytes) {
    // No credit in mplex: what a reader takes only makes room under the stream's buffer bound.
  }

  @Override
  protected void closed(int heldBytes) {
    session.closed(this);
  }
}
