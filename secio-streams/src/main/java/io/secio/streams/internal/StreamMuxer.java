package io.secio.streams.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerAdapter;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPromise;
import io.netty.channel.VoidChannelPromise;
import io.netty.util.AttributeKey;
import io.netty.util.collection.LongObjectHashMap;
import io.netty.util.concurrent.Promise;
import io.secio.streams.StreamChannel;
import java.util.ArrayDeque;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connection's side of a muxer, whatever its frames ({@code docs/STREAMS.md} §3): the open
 * streams by key, their registration with the handler for inbound streams, read completes put off to
 * the end of the connection's read burst, one flush per burst, the queue of streams with bytes to
 * send (served round robin while the connection is writable, so a stream without credit or with a
 * slow consumer never holds the others up), writability passed down to every stream, and the end of
 * every stream when the connection ends. A muxer (yamux, mplex) subclasses it with its
 * frames and decisions; its {@link MuxerHandler} feeds it the connection's events.
 *
 * <p>Thread safety: the connection's event loop only.
 */
public abstract class StreamMuxer {
  /** Where {@code StreamChannelBootstrap} finds the muxer of a connection. */
  public static final AttributeKey<StreamMuxer> KEY = AttributeKey.valueOf(StreamMuxer.class, "muxer");

  private static final Logger LOG = LoggerFactory.getLogger(StreamMuxer.class);
  /** Bytes of data frames written between two flushes at most, so no connection holds a burst of all windows. */
  private static final int FLUSH_EVERY_BYTES = 256 * 1024;

  /** What {@code StreamChannelBootstrap.open()} asks for: the stream's handler, options and attributes. */
  public static final class Open {
    final ChannelHandler handler;
    final Map<ChannelOption<?>, Object> options;
    final Map<AttributeKey<?>, Object> attrs;

    /**
     * A request.
     *
     * @param handler added to the stream's pipeline, or {@code null}
     * @param options applied to the stream's config
     * @param attrs set on the stream
     */
    public Open(ChannelHandler handler, Map<ChannelOption<?>, Object> options, Map<AttributeKey<?>, Object> attrs) {
      this.handler = handler;
      this.options = options;
      this.attrs = attrs;
    }
  }

  /** The muxer's handler's context in the connection's pipeline. */
  protected final ChannelHandlerContext ctx;
  private final ChannelHandler inboundHandler;
  private final VoidChannelPromise quiet;
  private final LongObjectHashMap<AbstractStreamChannel> streams = new LongObjectHashMap<>();
  private final ArrayDeque<AbstractStreamChannel> readCompletePending = new ArrayDeque<>();
  private final ArrayDeque<AbstractStreamChannel> sendQueue = new ArrayDeque<>();
  private boolean readInProgress;
  private boolean flushPending;
  private boolean draining;
  private boolean drainAgain;
  private int unflushedBytes;
  private boolean streamsWritable;
  private boolean fanningOut;

  /**
   * A muxer on the connection of {@code ctx}; {@link #attach()} makes it the connection's.
   *
   * @param ctx the muxer handler's context
   * @param inboundHandler added to each inbound stream; {@code @Sharable}, or {@code null} to refuse
   *     inbound streams
   */
  protected StreamMuxer(ChannelHandlerContext ctx, ChannelHandler inboundHandler) {
    if (inboundHandler != null && !sharable(inboundHandler)) {
      throw new IllegalArgumentException("the inbound stream handler serves every stream: make it @Sharable "
          + "(a ChannelInitializer is): " + inboundHandler.getClass().getName());
    }
    this.ctx = ctx;
    this.inboundHandler = inboundHandler;
    this.quiet = new VoidChannelPromise(ctx.channel(), false);
    this.streamsWritable = ctx.channel().isWritable();
  }

  private static boolean sharable(ChannelHandler handler) {
    return handler instanceof ChannelHandlerAdapter
        ? ((ChannelHandlerAdapter) handler).isSharable()
        : handler.getClass().isAnnotationPresent(ChannelHandler.Sharable.class);
  }

  /** Opens streams of {@code parent}'s muxer for {@code StreamChannelBootstrap}; on the event loop. */
  public static void open(Channel parent, Open request, Promise<StreamChannel> promise) {
    StreamMuxer muxer = parent.attr(KEY).get();
    if (muxer == null) {
      promise.tryFailure(new IllegalStateException("no stream muxer in the pipeline of " + parent));
    } else if (promise.setUncancellable()) {
      muxer.open(request, promise);
    }
  }

  /** Opens a stream, completing {@code promise} (uncancellable by now) with it or failing it. */
  protected abstract void open(Open request, Promise<StreamChannel> promise);

  // ---- what the muxer does with the connection's events (its MuxerHandler's calls) ----

  /** The connection is active (now, or already when the handler was added); nothing by default. */
  protected void start() {}

  /** Bytes the connection read; the caller releases {@code in}. */
  protected abstract void read(ByteBuf in);

  /** The connection ended, or its input did: no frame comes any more. */
  protected abstract void inactive();

  /** The connection below failed with {@code cause}: every stream and the pipeline hear it, and it closes. */
  protected abstract void exception(Throwable cause);

  /** The application closes the connection, completing {@code promise} once it is closed. */
  protected abstract void close(ChannelPromise promise);

  /** The muxer's handler left the pipeline. */
  protected abstract void removed();

  /** Makes this the connection's muxer (where bootstraps find it). */
  public final void attach() {
    ctx.channel().attr(KEY).set(this);
  }

  /** Stops being the connection's muxer. */
  public final void detach() {
    ctx.channel().attr(KEY).compareAndSet(this, null);
  }

  /** The handler for inbound streams, or {@code null} when they are refused. */
  protected final ChannelHandler inboundHandler() {
    return inboundHandler;
  }

  // ---- streams ----

  /** The open stream under {@code key}, or {@code null}. */
  protected final AbstractStreamChannel stream(long key) {
    return streams.get(key);
  }

  /** How many streams are open. */
  protected final int streamCount() {
    return streams.size();
  }

  /** Adds {@code stream} under {@code key}; {@link #register} must follow. */
  protected final void add(long key, AbstractStreamChannel stream) {
    streams.put(key, stream);
  }

  /**
   * Gives an added {@code stream} {@code request}'s handler, options and attributes (the inbound
   * handler when {@code request} is {@code null}) and registers it: its initializer runs now.
   */
  protected final void register(AbstractStreamChannel stream, Open request) {
    ChannelHandler handler = request == null ? inboundHandler : request.handler;
    if (request != null) {
      for (Map.Entry<ChannelOption<?>, Object> option : request.options.entrySet()) {
        setOption(stream, option.getKey(), option.getValue());
      }
      for (Map.Entry<AttributeKey<?>, Object> attr : request.attrs.entrySet()) {
        setAttr(stream, attr.getKey(), attr.getValue());
      }
    }
    if (handler != null) {
      stream.pipeline().addLast(handler);
    }
    stream.registered();
  }

  @SuppressWarnings("unchecked")
  private static <T> void setOption(Channel stream, ChannelOption<T> option, Object value) {
    if (!stream.config().setOption(option, (T) value)) {
      LOG.warn("{}: unknown stream option {}", stream, option);
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> void setAttr(Channel stream, AttributeKey<T> key, Object value) {
    stream.attr(key).set((T) value);
  }

  /** Forgets the stream under {@code key} (it closed). */
  protected final void unregister(long key) {
    streams.remove(key);
  }

  /** Every open stream gets {@code cause} and closes (the connection failed). */
  protected final void failAll(Throwable cause) {
    for (AbstractStreamChannel stream : snapshot()) {
      stream.connectionFailed(cause);
    }
  }

  /** Every open stream ends: it closes once its received bytes were read (the connection ended). */
  protected final void endAll() {
    for (AbstractStreamChannel stream : snapshot()) {
      stream.connectionEnded();
    }
  }

  /**
   * The connection ended with no muxer-level end (mplex has none): a stream whose peer had ended its
   * input closes once its bytes were read, as {@link #endAll()}; every other stream gets {@code
   * cause} and closes.
   */
  protected final void endOrFailAll(Throwable cause) {
    for (AbstractStreamChannel stream : snapshot()) {
      if (stream.inputEnded()) {
        stream.connectionEnded();
      } else {
        stream.connectionFailed(cause);
      }
    }
  }

  private AbstractStreamChannel[] snapshot() {
    return streams.values().toArray(new AbstractStreamChannel[0]);
  }

  // ---- the connection's events ----

  /** The connection's read burst begins: flushes and read completes wait for its end. */
  public final void readStarted() {
    readInProgress = true;
  }

  /** The connection's read burst ended: put-off read completes happen, then one flush. */
  public final void readEnded() {
    try {
      for (AbstractStreamChannel stream; (stream = readCompletePending.poll()) != null; ) {
        stream.readComplete();
      }
    } finally {
      readInProgress = false;
      if (flushPending) {
        flushNow();
      }
    }
  }

  final boolean readInProgress() {
    return readInProgress;
  }

  final void readCompleteLater(AbstractStreamChannel stream) {
    readCompletePending.add(stream);
  }

  /**
   * The connection's writability changed: sending resumes, and the streams follow what is left.
   * Bytes already queued go first, so while they refill the connection (it flips a few times per
   * frame) the streams stay unwritable and hear nothing: a flip costs a check, not an event per
   * stream.
   */
  public final void writabilityChanged() {
    if (ctx.channel().isWritable()) {
      drain();
    } else {
      followWritability();
    }
  }

  /**
   * Every stream takes the connection's writability if they have not yet. Netty fires some changes
   * later, and a drain or the fan-out itself may flip the connection again: a stale call does
   * nothing, and one made during the fan-out is taken up when it ends.
   */
  private void followWritability() {
    if (fanningOut || draining) {
      return; // the loop below, or the drain's end, looks again
    }
    fanningOut = true;
    try {
      for (boolean writable; (writable = ctx.channel().isWritable()) != streamsWritable; ) {
        streamsWritable = writable;
        for (AbstractStreamChannel stream : snapshot()) {
          stream.connectionWritable(writable);
        }
      }
    } finally {
      fanningOut = false;
    }
  }

  /** The connection's writability as the streams last heard of it. */
  final boolean streamsWritable() {
    return streamsWritable;
  }

  // ---- writing ----

  /** A promise of the connection completing {@code streamPromise}; the quiet one for a void promise. */
  final ChannelPromise parentPromise(ChannelPromise streamPromise) {
    if (streamPromise.isVoid()) {
      return quiet;
    }
    ChannelPromise promise = ctx.newPromise();
    promise.addListener(f -> {
      if (f.isSuccess()) {
        streamPromise.trySuccess();
      } else {
        streamPromise.tryFailure(f.cause());
      }
    });
    return promise;
  }

  /** A void promise of the connection that stays quiet when its write fails (the connection is going). */
  public final ChannelPromise quietPromise() {
    return quiet;
  }

  /** Notes {@code bytes} of data written unflushed, so a long drain flushes on the way. */
  protected final void wroteData(int bytes) {
    unflushedBytes += bytes;
  }

  /** Flushes the connection now, or at the end of its read burst. */
  public final void flush() {
    if (readInProgress) {
      flushPending = true;
    } else {
      flushNow();
    }
  }

  private void flushNow() {
    flushPending = false;
    unflushedBytes = 0;
    ctx.flush();
  }

  /** {@code stream} has flushed bytes or got credit: queue it to send, and send what may go. */
  public final void send(AbstractStreamChannel stream) {
    if ((stream.state & AbstractStreamChannel.SEND_QUEUED) == 0 && stream.hasSendable()) {
      stream.state |= AbstractStreamChannel.SEND_QUEUED;
      sendQueue.add(stream);
    }
    drain();
  }

  /** One frame per stream in turn while the connection is writable; then the streams follow its writability. */
  private void drain() {
    if (draining) {
      drainAgain = true; // a write completed inside the loop and asked again: the loop goes on
      return;
    }
    draining = true;
    try {
      Channel connection = ctx.channel();
      do {
        drainAgain = false;
        boolean wrote = false;
        for (AbstractStreamChannel stream; connection.isWritable() && (stream = sendQueue.poll()) != null; ) {
          stream.state &= ~AbstractStreamChannel.SEND_QUEUED;
          if (!stream.isOpen() || !stream.hasSendable()) {
            continue;
          }
          stream.sendNext();
          wrote = true;
          if (stream.isOpen() && stream.hasSendable()) {
            stream.state |= AbstractStreamChannel.SEND_QUEUED;
            sendQueue.add(stream);
          }
          if (unflushedBytes >= FLUSH_EVERY_BYTES) {
            flushNow();
          }
        }
        if (wrote) {
          flush();
        }
      } while (drainAgain && connection.isWritable() && !sendQueue.isEmpty());
    } finally {
      draining = false;
    }
    followWritability();
  }
}
