package io.secio.streams.yamux;

import static io.secio.streams.yamux.YamuxFrames.FLAG_ACK;
import static io.secio.streams.yamux.YamuxFrames.FLAG_FIN;
import static io.secio.streams.yamux.YamuxFrames.FLAG_RST;
import static io.secio.streams.yamux.YamuxFrames.FLAG_SYN;
import static io.secio.streams.yamux.YamuxFrames.TYPE_GO_AWAY;
import static io.secio.streams.yamux.YamuxFrames.TYPE_PING;
import static io.secio.streams.yamux.YamuxFrames.TYPE_WINDOW_UPDATE;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.util.concurrent.Promise;
import io.netty.util.concurrent.ScheduledFuture;
import io.secio.streams.StreamChannel;
import io.secio.streams.internal.StreamMuxer;
import io.secio.streams.yamux.YamuxException.Reason;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * One yamux session ({@code docs/STREAMS.md} §4–§5): the frames that arrive, checked and dispatched;
 * stream ids, SYN and ACK, the ACK backlog; credit both ways ({@link SessionWindow}); keepalive
 * ({@link Keepalive}); GoAway and the session's end. {@link YamuxHandler} feeds it the connection's
 * events. Frames out are tentacle's byte for byte: a stream opens with {@code WindowUpdate SYN} and
 * accepts with {@code WindowUpdate ACK}, both carrying the grant above 256 KiB; it closes with {@code
 * WindowUpdate FIN} and resets with {@code WindowUpdate RST}, length 0; a refused SYN gets {@code
 * WindowUpdate ACK|RST}.
 *
 * <p>Over ~300 lines because the frame rules are one table: each check sits next to the frame it
 * applies to, and splitting them would spread one decision over files.
 *
 * <p>Not thread-safe: the connection's event loop.
 */
final class YamuxSession extends StreamMuxer implements YamuxFrameDecoder.Frames {
  /** Pongs and refusals the peer may provoke and leave unread before the session ends. */
  private static final int CONTROL_BACKLOG = 1024;
  /** A Data body this small is copied behind its header: one write instead of two. */
  private static final int COPY_BELOW_BYTES = 1024;

  final YamuxConfig config;
  private final boolean client;
  private final YamuxFrameDecoder decoder;
  private final SessionWindow window;
  private final Keepalive keepalive;
  private ScheduledFuture<?> keepaliveTimer;
  private long nextId;
  private long lastPeerId;
  private int unacked;
  private ArrayDeque<Object> waitingOpens;
  private int pendingControl;
  private YamuxStream current;
  private int currentFlags;
  private boolean goAwaySent;
  private boolean goAwayReceived;
  private boolean inactive;
  private boolean closeRequested;
  /** Why the session failed, or {@code null}. */
  private Throwable failure;

  YamuxSession(ChannelHandlerContext ctx, YamuxConfig config, boolean client, ChannelHandler inboundHandler) {
    super(ctx, inboundHandler);
    this.config = config;
    this.client = client;
    this.nextId = client ? 1 : 2;
    this.decoder = new YamuxFrameDecoder(config.maxFrameLength());
    this.window = new SessionWindow(config);
    this.keepalive = config.keepaliveInterval() == null ? null
        : new Keepalive(config.keepaliveInterval(), config.pingTimeout());
  }

  // ---- the connection's events ----

  /** The connection is active: keepalive starts. */
  @Override
  protected void start() {
    if (keepalive != null && keepaliveTimer == null && !inactive) {
      long interval = keepalive.intervalNanos();
      keepaliveTimer = ctx.executor().scheduleAtFixedRate(this::keepaliveTick, interval, interval, TimeUnit.NANOSECONDS);
    }
  }

  @Override
  protected void read(ByteBuf in) {
    readStarted();
    try {
      decoder.decode(in, this);
    } catch (YamuxException e) {
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
    stopTimers();
    if (failure == null) {
      if (goAwaySent || goAwayReceived) {
        failure = new YamuxException(Reason.SESSION_CLOSED, "the session ended");
        endAll();
      } else {
        failure = new YamuxException(Reason.CONNECTION_CLOSED, "the connection closed without GoAway");
        failAll(failure);
      }
    }
    failWaitingOpens();
    detach();
  }

  /** The connection below failed: every stream gets {@code cause}, and the connection closes. */
  @Override
  protected void exception(Throwable cause) {
    if (failure == null && !inactive) {
      failure = cause;
      decoder.stop();
      failAll(cause);
      failWaitingOpens();
    }
    ctx.fireExceptionCaught(cause);
    closeConnection(ctx.newPromise());
  }

  /** Closing the connection: GoAway 0 first, then the close once it is written. */
  @Override
  protected void close(ChannelPromise promise) {
    if (inactive || goAwaySent) {
      closeConnection(promise);
      return;
    }
    sendGoAway(YamuxFrames.GO_AWAY_NORMAL, promise);
  }

  @Override
  protected void removed() {
    if (!inactive) {
      stopTimers();
      failure = new YamuxException(Reason.SESSION_CLOSED, "the yamux handler left the pipeline");
      decoder.stop();
      failAll(failure);
      failWaitingOpens();
    }
    detach();
  }

  // ---- frames in ----

  @Override
  public boolean header(int type, int flags, long streamId, long length) throws YamuxException {
    if (type == TYPE_PING || type == TYPE_GO_AWAY) {
      if (streamId != 0) {
        throw new YamuxException(Reason.BAD_SESSION_FRAME, YamuxFrames.typeName(type) + " on stream " + streamId);
      }
      if (type == TYPE_PING) {
        ping(flags, length);
      } else {
        goAway(length);
      }
      return false;
    }
    if (streamId == 0) {
      throw new YamuxException(Reason.BAD_STREAM_ID, YamuxFrames.typeName(type) + " on stream 0");
    }
    YamuxStream stream = (YamuxStream) stream(streamId);
    if ((flags & FLAG_SYN) != 0 && type == YamuxFrames.TYPE_DATA && length > YamuxFrames.INITIAL_WINDOW_IN_BYTES) {
      // Sent before the peer saw any grant of ours: 256 KiB is all it may send (CVE-2026-32314).
      throw new YamuxException(Reason.WINDOW_EXCEEDED, "Data+SYN of " + length + " bytes on stream " + streamId
          + ", over the initial window");
    }
    if ((flags & FLAG_SYN) != 0) {
      stream = synReceived(stream, streamId);
    } else if (stream == null && !seen(streamId)) {
      throw new YamuxException(Reason.UNKNOWN_STREAM, YamuxFrames.typeName(type) + " on stream " + streamId
          + ", never opened");
    }
    if (stream == null) {
      return false; // a stream that closed, or one just refused: its frames are dropped
    }
    if ((flags & FLAG_ACK) != 0 && stream.awaitingAck) {
      stream.awaitingAck = false;
      unacked--;
      openWaiting();
    }
    if (type == TYPE_WINDOW_UPDATE) {
      if (!stream.addSendWindow(length)) {
        throw new YamuxException(Reason.WINDOW_OVERFLOW, "stream " + streamId + ": window "
            + stream.sendWindow + " + " + length + " is over 2^32 - 1");
      }
      if (length > 0) {
        send(stream);
      }
      streamEndFlags(stream, flags);
      return false;
    }
    if ((flags & FLAG_RST) != 0) {
      stream.receiveReset();
      return false;
    }
    if (length > 0 && stream.inputEnded()) {
      throw new YamuxException(Reason.DATA_AFTER_FIN, length + " bytes on stream " + streamId + " after its FIN");
    }
    if (length > stream.recvWindow) {
      throw new YamuxException(Reason.WINDOW_EXCEEDED, "Data of " + length + " bytes on stream " + streamId
          + ", credit " + stream.recvWindow);
    }
    current = stream;
    currentFlags = flags;
    return length > 0;
  }

  @Override
  public void data(ByteBuf chunk) {
    YamuxStream stream = current;
    if (stream == null || !stream.isOpen()) {
      chunk.release();
      return;
    }
    stream.recvWindow -= chunk.readableBytes();
    stream.receive(chunk);
  }

  @Override
  public void dataEnd() {
    YamuxStream stream = current;
    current = null;
    if (stream != null && stream.isOpen()) {
      stream.receiveComplete();
      streamEndFlags(stream, currentFlags);
    }
  }

  private static void streamEndFlags(YamuxStream stream, int flags) {
    if ((flags & FLAG_RST) != 0) {
      stream.receiveReset();
    } else if ((flags & FLAG_FIN) != 0) {
      stream.receiveEnd();
    }
  }

  /** Whether this side's own stream id or the peer's is one already used (so its stream closed). */
  private boolean seen(long streamId) {
    return ours(streamId) ? streamId < nextId : streamId <= lastPeerId;
  }

  private boolean ours(long streamId) {
    return (streamId & 1) == (client ? 1 : 0);
  }

  /** The peer opens {@code streamId}: the stream, or {@code null} when refused. */
  private YamuxStream synReceived(YamuxStream existing, long streamId) throws YamuxException {
    if (existing != null) {
      throw new YamuxException(Reason.DUPLICATE_STREAM, "SYN on open stream " + streamId);
    }
    if (ours(streamId)) {
      throw new YamuxException(Reason.BAD_STREAM_ID, "SYN on stream " + streamId + ", an id of "
          + (client ? "the client's (odd)" : "the server's (even)"));
    }
    if (streamId <= lastPeerId) {
      throw new YamuxException(Reason.BAD_STREAM_ID, "SYN on stream " + streamId + ", not above the peer's last, "
          + lastPeerId);
    }
    lastPeerId = streamId;
    if (goAwaySent || goAwayReceived) {
      writeControl(TYPE_WINDOW_UPDATE, FLAG_RST, streamId, 0);
      return null;
    }
    if (inboundHandler() == null || streamCount() >= config.maxStreams() || !window.admits(streamCount())) {
      writeControl(TYPE_WINDOW_UPDATE, FLAG_ACK | FLAG_RST, streamId, 0);
      return null;
    }
    YamuxStream stream = new YamuxStream(this, streamId, false);
    add(streamId, stream);
    writeFrame(TYPE_WINDOW_UPDATE, FLAG_ACK, streamId, openingGrant(stream), quietPromise());
    register(stream, null);
    flush();
    return stream;
  }

  private void ping(int flags, long opaque) {
    if ((flags & FLAG_SYN) != 0) {
      writeControl(TYPE_PING, FLAG_ACK, 0, opaque);
    } else if ((flags & FLAG_ACK) != 0 && keepalive != null) {
      keepalive.answered(opaque);
    }
  }

  private void goAway(long code) {
    if (goAwayReceived) {
      return; // tentacle repeats it; once is enough
    }
    goAwayReceived = true;
    decoder.stop();
    if (code != YamuxFrames.GO_AWAY_NORMAL) {
      YamuxException e = YamuxException.peerGoAway(code);
      failure = e;
      failAll(e);
      failWaitingOpens();
      ctx.fireExceptionCaught(e);
    } else {
      failWaitingOpens();
    }
    if (goAwaySent) {
      closeConnection(ctx.newPromise());
    } else {
      sendGoAway(YamuxFrames.GO_AWAY_NORMAL, ctx.newPromise());
    }
  }

  /** A connection-level violation: GoAway with its code, every stream gets {@code e}, then the close. */
  private void fail(YamuxException e) {
    if (failure != null || inactive) {
      return;
    }
    failure = e;
    decoder.stop();
    int code = e.reason().goAwayCode();
    failAll(e);
    failWaitingOpens();
    ctx.fireExceptionCaught(e);
    if (code >= 0 && !goAwaySent) {
      sendGoAway(code, ctx.newPromise());
    } else {
      closeConnection(ctx.newPromise());
    }
  }

  // ---- streams ----

  @Override
  protected void open(Open request, Promise<StreamChannel> promise) {
    if (inactive || goAwaySent || goAwayReceived || failure != null) {
      promise.tryFailure(new YamuxException(Reason.SESSION_CLOSED, "the session is "
          + (inactive ? "closed" : "going away")));
    } else if (streamCount() >= config.maxStreams() || !window.admits(streamCount())) {
      promise.tryFailure(new YamuxException(Reason.STREAM_LIMIT, streamCount() + " streams open"));
    } else if (nextId > YamuxFrames.MAX_U32) {
      promise.tryFailure(new YamuxException(Reason.STREAM_IDS_EXHAUSTED, "no stream id left"));
    } else if (unacked >= config.ackBacklog()) {
      if (waitingOpens == null) {
        waitingOpens = new ArrayDeque<>();
      }
      waitingOpens.add(request);
      waitingOpens.add(promise);
    } else {
      long streamId = nextId;
      nextId += 2;
      YamuxStream stream = new YamuxStream(this, streamId, true);
      stream.awaitingAck = true;
      unacked++;
      add(streamId, stream);
      writeFrame(TYPE_WINDOW_UPDATE, FLAG_SYN, streamId, openingGrant(stream), quietPromise());
      register(stream, request);
      flush();
      if (!promise.trySuccess(stream)) {
        stream.close();
      }
    }
  }

  @SuppressWarnings("unchecked")
  private void openWaiting() {
    while (waitingOpens != null && !waitingOpens.isEmpty() && unacked < config.ackBacklog()) {
      Open request = (Open) waitingOpens.poll();
      open(request, (Promise<StreamChannel>) waitingOpens.poll());
    }
  }

  @SuppressWarnings("unchecked")
  private void failWaitingOpens() {
    while (waitingOpens != null && !waitingOpens.isEmpty()) {
      waitingOpens.poll();
      ((Promise<StreamChannel>) waitingOpens.poll()).tryFailure(
          new YamuxException(Reason.SESSION_CLOSED, "the session ended before the stream could open"));
    }
  }

  /** The credit a SYN or ACK carries above the initial 256 KiB (0 unless the config grants it at once). */
  private long openingGrant(YamuxStream stream) {
    return config.windowInSyn() ? window.grant(stream, streamCount(), true) : 0;
  }

  /** {@code stream}'s pipeline read more: grant it credit, and others that waited for some. */
  void consumed(YamuxStream stream) {
    boolean freed = window.settle(stream);
    grantAndWrite(stream);
    if (freed) {
      grantStarved();
    }
  }

  void closed(YamuxStream stream) {
    unregister(stream.streamId());
    window.release(stream);
    if (stream.awaitingAck) {
      stream.awaitingAck = false;
      unacked--;
      openWaiting();
    }
    if (window.starvedCount() > 0) {
      grantStarved();
    }
  }

  private void grantAndWrite(YamuxStream stream) {
    if (inactive || !stream.isOpen() || stream.inputEnded()) {
      return;
    }
    long grant = window.grant(stream, streamCount(), false);
    if (grant > 0) {
      writeFrame(TYPE_WINDOW_UPDATE, 0, stream.streamId(), grant, quietPromise());
      flush();
    }
  }

  private void grantStarved() {
    for (int n = window.starvedCount(); n > 0; n--) {
      YamuxStream stream = window.pollStarved();
      if (stream == null) {
        return;
      }
      grantAndWrite(stream);
    }
  }

  // ---- frames out ----

  void writeFrame(int type, int flags, long streamId, long length, ChannelPromise promise) {
    if (inactive) {
      promise.tryFailure(failure);
      return;
    }
    ctx.write(YamuxFrames.header(ctx.alloc(), type, flags, streamId, length, 0), promise);
  }

  void writeData(YamuxStream stream, ByteBuf data, ChannelPromise promise) {
    int n = data.readableBytes();
    if (n < COPY_BELOW_BYTES) {
      ByteBuf frame = YamuxFrames.header(ctx.alloc(), YamuxFrames.TYPE_DATA, 0, stream.streamId(), n, n);
      frame.writeBytes(data);
      data.release();
      ctx.write(frame, promise);
    } else {
      ctx.write(YamuxFrames.header(ctx.alloc(), YamuxFrames.TYPE_DATA, 0, stream.streamId(), n, 0), quietPromise());
      ctx.write(data, promise);
    }
    wroteData(n);
  }

  /** A pong or a refusal: frames the peer provokes, so their backlog is bounded. */
  private void writeControl(int type, int flags, long streamId, long length) {
    if (pendingControl >= CONTROL_BACKLOG) {
      fail(new YamuxException(Reason.CONTROL_FLOOD, pendingControl + " pongs and refusals unread by the peer"));
      return;
    }
    pendingControl++;
    ChannelPromise promise = ctx.newPromise();
    promise.addListener(f -> pendingControl--);
    writeFrame(type, flags, streamId, length, promise);
    flush();
  }

  private void sendGoAway(int code, ChannelPromise closePromise) {
    goAwaySent = true;
    stopTimers();
    ChannelPromise written = ctx.newPromise();
    ScheduledFuture<?> timeout = ctx.executor().schedule(
        () -> closeConnection(closePromise), config.writeTimeout().toNanos(), TimeUnit.NANOSECONDS);
    written.addListener(f -> {
      timeout.cancel(false);
      closeConnection(closePromise);
    });
    writeFrame(TYPE_GO_AWAY, 0, 0, code, written);
    flush();
  }

  /** Closes the connection once; a later request waits for the same close. */
  private void closeConnection(ChannelPromise promise) {
    if (closeRequested) {
      ctx.channel().closeFuture().addListener(f -> promise.trySuccess());
      return;
    }
    closeRequested = true;
    ctx.close(promise);
  }

  private void keepaliveTick() {
    if (inactive || goAwaySent) {
      return;
    }
    long opaque = keepalive.tick();
    if (opaque < 0) {
      // As tokio-yamux: the session drops without a GoAway (the peer is not answering anyway).
      failure = new YamuxException(Reason.KEEPALIVE_TIMEOUT, "no answer to ping in " + config.pingTimeout());
      decoder.stop();
      failAll(failure);
      failWaitingOpens();
      ctx.fireExceptionCaught(failure);
      closeConnection(ctx.newPromise());
      return;
    }
    writeFrame(TYPE_PING, FLAG_SYN, 0, opaque, quietPromise());
    flush();
  }

  private void stopTimers() {
    if (keepaliveTimer != null) {
      keepaliveTimer.cancel(false);
    }
  }
}
