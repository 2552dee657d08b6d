package io.secio.streams.yamux;

import static io.secio.streams.yamux.YamuxFrames.ack;
import static io.secio.streams.yamux.YamuxFrames.fin;
import static io.secio.streams.yamux.YamuxFrames.rst;
import static io.secio.streams.yamux.YamuxFrames.syn;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.util.concurrent.Promise;
import io.secio.streams.StreamChannel;
import io.secio.streams.internal.AbstractStreamChannel;
import io.secio.streams.internal.ControlBacklog;
import io.secio.streams.internal.StreamMuxer;
import io.secio.streams.yamux.YamuxException.Reason;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * One yamux session ({@code docs/STREAMS.md} §4–§5): yamux's rules between its frames and its
 * streams. Each frame {@link YamuxFrameReader} reads is checked against the session's state and
 * handed on; stream ids, SYN and ACK, and the opens that wait for ACKs; pongs and refusals (the
 * writer keeps every answer within {@link YamuxConfig#maxUnreadControlFrames()}); keepalive ({@link
 * Keepalive}); and what an end means in yamux: the GoAway that answers it. Credit is {@link YamuxFlowController}'s, the frames
 * out {@link YamuxFrameWriter}'s, and the order of an end the shell's ({@link StreamMuxer}).
 *
 * <p>Not thread-safe: the connection's event loop.
 */
final class YamuxSession extends StreamMuxer implements YamuxFrameReader.Listener {
  private final YamuxConfig config;
  private final boolean client;
  private final YamuxFrameWriter writer;
  private final YamuxFlowController flow;
  private final Keepalive keepalive;
  private final AckBacklog ackBacklog;
  private long nextId;
  private long lastPeerId;
  /** The flags of the Data frame whose body is being read: FIN or RST apply once it is whole. */
  private int bodyFlags;
  /** Our GoAway went out: no stream opens any more, the peer's SYNs are reset, keepalive stops. */
  private boolean goAwaySent;

  YamuxSession(ChannelHandlerContext ctx, YamuxConfig config, boolean client, ChannelHandler inboundHandler) {
    super(ctx, inboundHandler);
    this.config = config;
    this.client = client;
    this.nextId = client ? 1 : 2;
    this.writer = new YamuxFrameWriter(ctx, new ControlBacklog(this, config.maxUnreadControlFrames()));
    this.flow = new YamuxFlowController(this, writer, config);
    this.ackBacklog = new AckBacklog(config.ackBacklog());
    this.keepalive = new Keepalive(config.keepaliveInterval(), config.pingTimeout());
    use(new YamuxFrameReader(config.maxFrameLength(), this), writer, flow);
  }

  // ---- the shell's questions ----

  /** The connection is active: keepalive starts. */
  @Override
  protected void start() {
    if (!isInactive()) {
      keepalive.start(ctx.executor(), this::keepaliveTick);
    }
  }

  @Override
  protected void stopped(Throwable cause) {
    keepalive.stop();
    ackBacklog.failWaiting();
  }

  @Override
  protected Throwable closedCause() {
    // The peer's GoAway ended the session already; ours means the close that followed it is orderly.
    return goAwaySent ? YamuxException.ended("the session ended")
        : new YamuxException(Reason.CONNECTION_CLOSED, "the connection closed without GoAway");
  }

  @Override
  protected Throwable removedCause() {
    return new YamuxException(Reason.SESSION_CLOSED, "the yamux handler left the pipeline");
  }

  @Override
  protected Throwable floodCause(int unread) {
    return new YamuxException(Reason.CONTROL_FLOOD, unread + " control frames unread by the peer");
  }

  /**
   * GoAway: 0 when the application closes and in answer to the peer's GoAway (as tentacle answers),
   * the violation's code for a violation, none for the rest (a keepalive timeout, as tokio-yamux; a
   * failure below).
   */
  @Override
  protected ChannelFuture goodbye(Throwable cause) {
    long code = cause == null ? YamuxFrames.GO_AWAY_NORMAL : YamuxException.answer(cause);
    if (code < 0) {
      return null;
    }
    goAwaySent = true;
    ChannelPromise written = ctx.newPromise();
    writer.writeGoAway(code, written);
    return written;
  }

  @Override
  protected Duration goodbyeTimeout() {
    return config.writeTimeout();
  }

  @Override
  protected boolean isOrderly(Throwable cause) {
    return cause instanceof YamuxException && ((YamuxException) cause).isOrderlyEnd();
  }

  // ---- frames in ----

  @Override
  public boolean onData(long streamId, int flags, long length) throws YamuxException {
    YamuxStream stream = streamFor(streamId, flags, "Data");
    if (stream == null) {
      return false; // a stream that closed, or one just refused: its frames are dropped
    }
    if (rst(flags)) {
      stream.receiveReset();
      return false;
    }
    if (length > 0 && stream.inputEnded()) {
      throw new YamuxException(Reason.DATA_AFTER_FIN, length + " bytes on stream " + streamId + " after its FIN");
    }
    if (length > flow.receiveWindow(stream)) {
      throw new YamuxException(Reason.WINDOW_EXCEEDED, "Data of " + length + " bytes on stream " + streamId
          + ", credit " + flow.receiveWindow(stream));
    }
    bodyFor(stream);
    bodyFlags = flags;
    return length > 0;
  }

  @Override
  public void onDataBody(ByteBuf slice) {
    bodySlice(slice);
  }

  @Override
  public void onDataEnd() {
    YamuxStream stream = (YamuxStream) bodyEnd();
    if (stream != null) {
      streamEnds(stream, bodyFlags);
    }
  }

  @Override
  public void onWindowUpdate(long streamId, int flags, long delta) throws YamuxException {
    YamuxStream stream = streamFor(streamId, flags, "WindowUpdate");
    if (stream == null) {
      return;
    }
    if (!flow.addSendWindow(stream, delta)) {
      throw new YamuxException(Reason.WINDOW_OVERFLOW, "stream " + streamId + ": window "
          + flow.sendWindow(stream) + " + " + delta + " is over 2^32 - 1");
    }
    streamEnds(stream, flags);
  }

  @Override
  public void onPing(boolean ack, long opaque) {
    if (!ack) {
      writer.writePong(opaque);
    } else {
      keepalive.answered(opaque);
    }
  }

  @Override
  public void onGoAway(long code) {
    terminate(code == YamuxFrames.GO_AWAY_NORMAL ? YamuxException.ended("the peer sent GoAway 0")
        : YamuxException.peerGoAway(code));
  }

  private static void streamEnds(YamuxStream stream, int flags) {
    if (rst(flags)) {
      stream.receiveReset();
    } else if (fin(flags)) {
      stream.receiveEnd();
    }
  }

  /**
   * The stream a Data or WindowUpdate frame is for: the one its SYN opens, or an open one; {@code
   * null} when it closed or was just refused (the frame is dropped). Its ACK settles our open.
   */
  private YamuxStream streamFor(long streamId, int flags, String frame) throws YamuxException {
    YamuxStream stream = (YamuxStream) stream(streamId);
    if (syn(flags)) {
      stream = synReceived(stream, streamId);
    } else if (stream == null && !seen(streamId)) {
      throw new YamuxException(Reason.UNKNOWN_STREAM, frame + " on stream " + streamId + ", never opened");
    }
    if (stream != null && ack(flags)) {
      ackBacklog.settled(stream, this);
    }
    return stream;
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
    if (goAwaySent) {
      writer.writeRst(streamId);
      return null;
    }
    if (inboundHandler() == null || streamCount() >= config.maxStreams() || !flow.admits(streamCount())) {
      writer.writeRefusal(streamId);
      return null;
    }
    YamuxStream stream = new YamuxStream(this, streamId, false);
    if (!writer.writeAck(streamId, flow.openingGrant(stream))) {
      return null; // the peer left too many answers unread: the session ended
    }
    add(streamId, stream);
    register(stream, null);
    return stream;
  }

  // ---- streams ----

  @Override
  public void open(Consumer<? super StreamChannel> init, Promise<StreamChannel> promise) {
    if (goAwaySent || isEnded()) {
      promise.tryFailure(new YamuxException(Reason.SESSION_CLOSED, "the session is "
          + (isInactive() ? "closed" : "going away")));
    } else if (streamCount() >= config.maxStreams() || !flow.admits(streamCount())) {
      promise.tryFailure(new YamuxException(Reason.STREAM_LIMIT, streamCount() + " streams open"));
    } else if (nextId > YamuxFrames.MAX_U32) {
      promise.tryFailure(new YamuxException(Reason.STREAM_IDS_EXHAUSTED, "no stream id left"));
    } else if (ackBacklog.full()) {
      ackBacklog.await(init, promise);
    } else {
      long streamId = nextId;
      nextId += 2;
      YamuxStream stream = new YamuxStream(this, streamId, true);
      ackBacklog.opened(stream);
      writer.writeSyn(streamId, flow.openingGrant(stream), writer.quietPromise());
      add(streamId, stream);
      register(stream, init);
      flush();
      if (!promise.trySuccess(stream)) {
        stream.close();
      }
    }
  }

  @Override
  protected void streamClosed(AbstractStreamChannel stream) {
    unregister(stream.streamId());
    ackBacklog.settled((YamuxStream) stream, this);
  }

  private void keepaliveTick() {
    if (goAwaySent) {
      return; // the session is ending: the timer stops when it has
    }
    long opaque = keepalive.tick();
    if (opaque < 0) {
      // As tokio-yamux: the session drops without a GoAway (the peer is not answering anyway).
      terminate(new YamuxException(Reason.KEEPALIVE_TIMEOUT, "no answer to ping in " + config.pingTimeout()));
      return;
    }
    writer.writePing(opaque, writer.quietPromise());
    flush();
  }
}
