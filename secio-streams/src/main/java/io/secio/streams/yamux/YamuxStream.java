package io.secio.streams.yamux;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelPromise;
import io.secio.streams.internal.AbstractStreamChannel;

/**
 * One yamux stream: the child channel plus its two windows ({@code docs/STREAMS.md} §4.1). The
 * session does the arithmetic; this holds the numbers and turns the child's requests into frames.
 *
 * <p>Not thread-safe: the connection's event loop.
 */
final class YamuxStream extends AbstractStreamChannel {
  private final YamuxSession session;
  /** Credit the peer granted that this side has not used: the most it may send now. */
  long sendWindow = YamuxFrames.INITIAL_WINDOW_IN_BYTES;
  /** Credit this side granted that the peer has not used: the most it may still send. */
  long recvWindow = YamuxFrames.INITIAL_WINDOW_IN_BYTES;
  /** What of this stream's receive credit (window plus held bytes) lies over its 256 KiB share. */
  long excess;
  /** Opened here and not ACKed by the peer yet. */
  boolean awaitingAck;
  /** Wants more credit than the session window had free; retried when some frees. */
  boolean starved;

  YamuxStream(YamuxSession session, long streamId, boolean initiator) {
    super(session, streamId, initiator);
    this.session = session;
  }

  /** This stream's receive credit: what the peer may send plus what it sent that is still held. */
  long receiveCredit() {
    return recvWindow + heldBytes();
  }

  /** The peer granted {@code delta} more; false when that would pass 2^32 - 1. */
  boolean addSendWindow(long delta) {
    long window = sendWindow + delta;
    if (window > YamuxFrames.MAX_U32) {
      return false;
    }
    sendWindow = window;
    if (window > 0) {
      noCredit(false);
    }
    return true;
  }

  @Override
  protected void writeData(ByteBuf data, ChannelPromise promise) {
    sendWindow -= data.readableBytes();
    if (sendWindow == 0) {
      noCredit(true);
    }
    session.writeData(this, data, promise);
  }

  @Override
  protected void writeEnd(ChannelPromise promise) {
    session.writeFrame(YamuxFrames.TYPE_WINDOW_UPDATE, YamuxFrames.FLAG_FIN, streamId(), 0, promise);
  }

  @Override
  protected void writeReset() {
    session.writeFrame(YamuxFrames.TYPE_WINDOW_UPDATE, YamuxFrames.FLAG_RST, streamId(), 0, session.quietPromise());
  }

  @Override
  protected int sendCredit() {
    return (int) Math.min(sendWindow, session.config.maxSendFrame());
  }

  @Override
  protected void consumed(int bytes) {
    session.consumed(this);
  }

  @Override
  protected void closed(int heldBytes) {
    session.closed(this);
  }
}
