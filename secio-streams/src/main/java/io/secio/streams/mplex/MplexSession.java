package io.secio.streams.mplex;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.Promise;
import io.secio.streams.StreamChannel;
import io.secio.streams.internal.AbstractStreamChannel;
import io.secio.streams.internal.ControlBacklog;
import io.secio.streams.internal.StreamMuxer;
import io.secio.streams.mplex.MplexException.Reason;
import java.util.function.Consumer;

/**
 * One mplex session ({@code docs/STREAMS.md} §9): mplex's rules between its frames and its streams.
 * Each frame {@link MplexFrameReader} reads is checked against the session's state and handed on;
 * the stream ids of each side; the bounds that stand in for the flow control mplex lacks (a
 * stream's buffer, {@link MplexFlowController}; the stream cap; the refusals the peer leaves unread);
 * and what an end means in mplex, which has no goodbye: the connection's close is its orderly end.
 *
 * <p>The peer's streams and ours are two id spaces, told apart by the flag, so a stream's key in the
 * muxer is its id and one bit for whose it is.
 *
 * <p>Not thread-safe: the connection's event loop.
 */
final class MplexSession extends StreamMuxer implements MplexFrameReader.Listener {
  private final MplexConfig config;
  private final MplexFrameWriter writer;
  private final MplexFlowController flow;
  private long nextId;
  private long lastPeerId = -1;
  private int ours;
  private int theirs;

  MplexSession(ChannelHandlerContext ctx, MplexConfig config, ChannelHandler inboundHandler) {
    super(ctx, inboundHandler);
    this.config = config;
    this.writer = new MplexFrameWriter(ctx, new ControlBacklog(this, config.maxUnreadControlFrames()));
    this.flow = new MplexFlowController(this, writer, config);
    use(new MplexFrameReader(config.maxMessage(), this), writer, flow);
  }

  private static long key(long streamId, boolean openedHere) {
    return streamId << 1 | (openedHere ? 1 : 0);
  }

  // ---- the shell's questions ----

  @Override
  protected Throwable closedCause() {
    return new MplexException(Reason.CONNECTION_CLOSED, "the connection closed");
  }

  @Override
  protected Throwable removedCause() {
    return new MplexException(Reason.SESSION_CLOSED, "the mplex handler left the pipeline");
  }

  @Override
  protected Throwable floodCause(int unread) {
    return new MplexException(Reason.CONTROL_FLOOD, unread + " resets and closes unread by the peer");
  }

  /** The connection's close: mplex's only end that is no error. */
  @Override
  protected boolean isOrderly(Throwable cause) {
    return cause instanceof MplexException && ((MplexException) cause).reason() == Reason.CONNECTION_CLOSED;
  }

  /** A stream the peer had closed is read to its end; any other was cut off. */
  @Override
  protected boolean endsInOrder(AbstractStreamChannel stream, Throwable cause) {
    return isOrderly(cause) && stream.inputEnded();
  }

  // ---- frames in ----

  @Override
  public void onNewStream(long streamId) throws MplexException {
    if (stream(key(streamId, false)) != null) {
      throw new MplexException(Reason.DUPLICATE_STREAM, "NewStream on open stream " + streamId);
    }
    if (streamId <= lastPeerId) {
      throw new MplexException(Reason.BAD_STREAM_ID, "NewStream on stream " + streamId
          + ", not above the peer's last, " + lastPeerId);
    }
    lastPeerId = streamId;
    if (inboundHandler() == null || theirs >= config.maxStreams() || isClosing() || !flow.budgetLeft()) {
      writer.writeReset(streamId, false); // provoked by the peer: the writer bounds what it leaves unread
      return;
    }
    MplexStream stream = new MplexStream(this, streamId, false);
    theirs++;
    add(key(streamId, false), stream);
    register(stream, null);
  }

  @Override
  public boolean onMessage(long streamId, boolean initiator, int length) throws MplexException {
    MplexStream stream = streamFor(streamId, initiator, MplexFrames.message(initiator));
    if (stream == null || length == 0) {
      return false;
    }
    if (stream.inputEnded()) {
      throw new MplexException(Reason.DATA_AFTER_CLOSE, length + " bytes on stream " + streamId
          + " after its close");
    }
    // No flow control to push back with: the stream goes, never the node's memory.
    if (!flow.fits(stream, length)) {
      stream.reset(new MplexException(Reason.STREAM_BUFFER_EXCEEDED, "stream " + streamId + " holds "
          + flow.held(stream) + " unread bytes, " + length + " more would pass " + config.maxStreamBuffer()));
      return false;
    }
    if (!flow.fitsSession(length)) {
      stream.reset(new MplexException(Reason.SESSION_BUFFER_EXCEEDED, "the streams hold " + flow.heldBySession()
          + " unread bytes, " + length + " more for stream " + streamId + " would pass " + config.maxSessionBuffer()));
      return false;
    }
    if (!flow.fitsBudget(length)) {
      stream.reset(new MplexException(Reason.BUDGET_EXCEEDED, "the node's budget has room for fewer than "
          + length + " more bytes for stream " + streamId));
      return false;
    }
    bodyFor(stream);
    return true;
  }

  @Override
  public void onMessageBody(ByteBuf slice) {
    bodySlice(slice);
  }

  @Override
  public void onMessageEnd() {
    bodyEnd();
  }

  @Override
  public void onClose(long streamId, boolean initiator) throws MplexException {
    MplexStream stream = streamFor(streamId, initiator, MplexFrames.close(initiator));
    if (stream != null) {
      stream.receiveEnd();
    }
  }

  @Override
  public void onReset(long streamId, boolean initiator) throws MplexException {
    MplexStream stream = streamFor(streamId, initiator, MplexFrames.reset(initiator));
    if (stream != null) {
      stream.receiveReset();
    }
  }

  /**
   * The stream a frame of the peer's is for, or {@code null} when it closed or was refused (the peer
   * may not have seen that yet: the frame is dropped). The initiator's frames are for the peer's
   * streams, the receiver's for ours.
   */
  private MplexStream streamFor(long streamId, boolean initiator, int flag) throws MplexException {
    boolean openedHere = !initiator;
    MplexStream stream = (MplexStream) stream(key(streamId, openedHere));
    if (stream == null && (openedHere ? streamId >= nextId : streamId > lastPeerId)) {
      throw new MplexException(Reason.UNKNOWN_STREAM, MplexFrames.flagName(flag) + " on stream " + streamId
          + ", never opened");
    }
    return stream;
  }

  // ---- streams ----

  @Override
  public void open(Consumer<? super StreamChannel> init, Promise<StreamChannel> promise) {
    if (isClosing() || isEnded()) {
      promise.tryFailure(new MplexException(Reason.SESSION_CLOSED, "the session is "
          + (isInactive() ? "closed" : "closing")));
    } else if (ours >= config.maxStreams() || nextId > MplexFrames.MAX_STREAM_ID) {
      promise.tryFailure(new MplexException(Reason.STREAM_LIMIT, ours + " streams of ours open"));
    } else {
      long streamId = nextId++;
      MplexStream stream = new MplexStream(this, streamId, true);
      ours++;
      add(key(streamId, true), stream);
      writer.writeNewStream(streamId, writer.quietPromise());
      register(stream, init);
      flush();
      if (!promise.trySuccess(stream)) {
        stream.close();
      }
    }
  }

  @Override
  protected void streamClosed(AbstractStreamChannel stream) {
    if (stream.isInitiator()) {
      ours--;
    } else {
      theirs--;
    }
    unregister(key(stream.streamId(), stream.isInitiator()));
  }
}
