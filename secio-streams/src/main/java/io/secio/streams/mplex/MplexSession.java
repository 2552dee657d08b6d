package io.secio.streams.mplex;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.util.concurrent.Promise;
import io.secio.streams.StreamChannel;
import io.secio.streams.internal.AbstractStreamChannel;
import io.secio.streams.internal.StreamMuxer;
import io.secio.streams.mplex.MplexException.Reason;

/**
 * One mplex session ({@code docs/STREAMS.md} §9): the frames that arrive, checked and dispatched;
 * the stream ids of each side; the bounds that stand in for the flow control mplex lacks (a stream's
 * buffer, the stream cap, the refusal backlog); the session's end. {@link MplexHandler} feeds it the
 * connection's events.
 *
 * <p>The peer's streams and ours are two id spaces, told apart by the flag, so a stream's key in the
 * muxer is its id and one bit for whose it is.
 *
 * <p>Not thread-safe: the connection's event loop.
 */
final class MplexSession extends StreamMuxer implements MplexFrameDecoder.Frames {
  /** A message this small is copied behind its header: one write instead of two. */
  private static final int COPY_BELOW_BYTES = 1024;
  /** Refusals written in one read before they are flushed without waiting for its end. */
  private static final int REFUSALS_PER_FLUSH = 64;

  final MplexConfig config;
  private final MplexFrameDecoder decoder;
  private long nextId;
  private long lastPeerId = -1;
  private int ours;
  private int theirs;
  private int unreadRefusals;
  private MplexStream current;
  private boolean inactive;
  private boolean closeRequested;
  /** Why the session ended, or {@code null}. */
  private Throwable failure;

  MplexSession(ChannelHandlerContext ctx, MplexConfig config, ChannelHandler inboundHandler) {
    super(ctx, inboundHandler);
    this.config = config;
    this.decoder = new MplexFrameDecoder(config.maxMessage());
  }

  private static long key(long streamId, boolean openedHere) {
    return streamId << 1 | (openedHere ? 1 : 0);
  }

  // ---- the connection's events ----

  @Override
  protected void read(ByteBuf in) {
    readStarted();
    try {
      decoder.decode(in, this);
    } catch (MplexException e) {
      fail(e);
    }
  }

  @Override
  protected void inactive() {
    if (inactive) {
      return;
    }
    inactive = true;
    decoder.stop();
    if (failure == null) {
      failure = new MplexException(Reason.CONNECTION_CLOSED, "the connection closed");
      endOrFailAll(failure);
    }
    detach();
  }

  /** The connection below failed: every stream gets {@code cause}, and the connection closes. */
  @Override
  protected void exception(Throwable cause) {
    if (failure == null && !inactive) {
      failure = cause;
      decoder.stop();
      failAll(cause);
    }
    ctx.fireExceptionCaught(cause);
    closeConnection(ctx.newPromise());
  }

  @Override
  protected void close(ChannelPromise promise) {
    closeConnection(promise);
  }

  @Override
  protected void removed() {
    if (!inactive && failure == null) {
      failure = new MplexException(Reason.SESSION_CLOSED, "the mplex handler left the pipeline");
      decoder.stop();
      failAll(failure);
    }
    detach();
  }

  // ---- frames in ----

  @Override
  public boolean header(long streamId, int flag, int length) throws MplexException {
    if (flag == MplexFrames.NEW_STREAM) {
      newStream(streamId);
      return false; // the name: read past, not kept
    }
    boolean openedHere = !MplexFrames.fromInitiator(flag);
    MplexStream stream = (MplexStream) stream(key(streamId, openedHere));
    if (stream == null) {
      if (openedHere ? streamId >= nextId : streamId > lastPeerId) {
        throw new MplexException(Reason.UNKNOWN_STREAM, MplexFrames.flagName(flag) + " on stream " + streamId
            + ", never opened");
      }
      return false; // a stream that closed or was refused: the peer may not have seen it yet
    }
    if (flag != MplexFrames.MESSAGE_INITIATOR && flag != MplexFrames.MESSAGE_RECEIVER) {
      if (length != 0) {
        throw new MplexException(Reason.BAD_CONTROL_FRAME, MplexFrames.flagName(flag) + " with " + length
            + " bytes on stream " + streamId);
      }
      if (flag == MplexFrames.CLOSE_INITIATOR || flag == MplexFrames.CLOSE_RECEIVER) {
        stream.receiveEnd();
      } else {
        stream.receiveReset();
      }
      return false;
    }
    if (length == 0) {
      return false;
    }
    if (stream.inputEnded()) {
      throw new MplexException(Reason.DATA_AFTER_CLOSE, length + " bytes on stream " + streamId
          + " after its close");
    }
    if ((long) stream.heldBytes() + length > config.maxStreamBuffer()) {
      // No flow control to push back with: the stream goes, never the node's memory.
      stream.pipeline().fireExceptionCaught(new MplexException(Reason.STREAM_BUFFER_EXCEEDED, "stream "
          + streamId + " holds " + stream.heldBytes() + " unread bytes, " + length + " more would pass "
          + config.maxStreamBuffer()));
      stream.reset();
      return false;
    }
    current = stream;
    return true;
  }

  private void newStream(long streamId) throws MplexException {
    if (stream(key(streamId, false)) != null) {
      throw new MplexException(Reason.DUPLICATE_STREAM, "NewStream on open stream " + streamId);
    }
    if (streamId <= lastPeerId) {
      throw new MplexException(Reason.BAD_STREAM_ID, "NewStream on stream " + streamId
          + ", not above the peer's last, " + lastPeerId);
    }
    lastPeerId = streamId;
    if (inboundHandler() == null || theirs >= config.maxStreams() || closeRequested) {
      refuse(streamId);
      return;
    }
    MplexStream stream = new MplexStream(this, streamId, false);
    theirs++;
    add(key(streamId, false), stream);
    register(stream, null);
  }

  @Override
  public void data(ByteBuf chunk) {
    MplexStream stream = current;
    if (stream == null || !stream.isOpen()) {
      chunk.release();
      return;
    }
    stream.receive(chunk);
  }

  @Override
  public void dataEnd() {
    MplexStream stream = current;
    current = null;
    if (stream != null && stream.isOpen()) {
      stream.receiveComplete();
    }
  }

  /** A connection-level violation: every stream and the pipeline get {@code e}, then the close. */
  private void fail(MplexException e) {
    if (failure != null || inactive) {
      return;
    }
    failure = e;
    decoder.stop();
    failAll(e);
    ctx.fireExceptionCaught(e);
    closeConnection(ctx.newPromise());
  }

  // ---- streams ----

  @Override
  protected void open(Open request, Promise<StreamChannel> promise) {
    if (inactive || closeRequested || failure != null) {
      promise.tryFailure(new MplexException(Reason.SESSION_CLOSED, "the session is "
          + (inactive ? "closed" : "closing")));
    } else if (ours >= config.maxStreams() || nextId > MplexFrames.MAX_STREAM_ID) {
      promise.tryFailure(new MplexException(Reason.STREAM_LIMIT, ours + " streams of ours open"));
    } else {
      long streamId = nextId++;
      MplexStream stream = new MplexStream(this, streamId, true);
      ours++;
      add(key(streamId, true), stream);
      // The name is the id in decimal, as js-libp2p-mplex and go-mplex name theirs.
      ByteBuf name = ByteBufUtil.writeAscii(ctx.alloc(), Long.toString(streamId));
      ByteBuf frame = MplexFrames.header(ctx.alloc(), streamId, MplexFrames.NEW_STREAM, name.readableBytes(),
          name.readableBytes());
      frame.writeBytes(name);
      name.release();
      ctx.write(frame, quietPromise());
      register(stream, request);
      flush();
      if (!promise.trySuccess(stream)) {
        stream.close();
      }
    }
  }

  void closed(MplexStream stream) {
    if (stream.isInitiator()) {
      ours--;
    } else {
      theirs--;
    }
    unregister(key(stream.streamId(), stream.isInitiator()));
  }

  // ---- frames out ----

  void writeFrame(long streamId, int flag, ChannelPromise promise) {
    if (inactive) {
      promise.tryFailure(failure);
      return;
    }
    ctx.write(MplexFrames.header(ctx.alloc(), streamId, flag, 0, 0), promise);
  }

  void writeData(AbstractStreamChannel stream, ByteBuf data, ChannelPromise promise) {
    int n = data.readableBytes();
    int flag = MplexFrames.message(stream.isInitiator());
    if (n < COPY_BELOW_BYTES) {
      ByteBuf frame = MplexFrames.header(ctx.alloc(), stream.streamId(), flag, n, n);
      frame.writeBytes(data);
      data.release();
      ctx.write(frame, promise);
    } else {
      ctx.write(MplexFrames.header(ctx.alloc(), stream.streamId(), flag, n, 0), quietPromise());
      ctx.write(data, promise);
    }
    wroteData(n);
  }

  /** A reset for a NewStream this side will not take: provoked by the peer, so its backlog is bounded. */
  private void refuse(long streamId) {
    if (unreadRefusals >= config.maxUnreadRefusals()) {
      fail(new MplexException(Reason.CONTROL_FLOOD, unreadRefusals + " refused streams unread by the peer"));
      return;
    }
    unreadRefusals++;
    ChannelPromise promise = ctx.newPromise();
    promise.addListener(f -> unreadRefusals--);
    writeFrame(streamId, MplexFrames.RESET_RECEIVER, promise);
    if (unreadRefusals % REFUSALS_PER_FLUSH == 0) {
      ctx.flush(); // a flood in one read: what a reading peer took is counted off as it goes
    } else {
      flush();
    }
  }

  /** Closes the connection once; a later request waits for the same close. */
  private void closeConnection(ChannelPromise promise) {
    if (closeRequested) {
      ctx.channel().closeFuture().addListener(f -> promise.trySuccess());
      return;
    }
    closeRequested = true;
    ctx.flush(); // what was written before the end goes out first (a close drops unflushed writes)
    ctx.close(promise);
  }
}
