package io.secio.streams.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerAdapter;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.util.collection.LongObjectHashMap;
import io.netty.util.concurrent.ScheduledFuture;
import io.secio.streams.StreamChannel;
import io.secio.streams.StreamOpener;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The shell every muxer's session extends ({@code docs/STREAMS.md} §3), as Netty's HTTP/2
 * connection handler is to its frame codec: the open streams by key and their registration, read
 * completes put off to the end of the connection's read burst, one flush per burst, and the
 * session's end. A session brings its {@link FrameReader}, its {@link StreamFrameWriter} and its
 * {@link FlowController} ({@link #use}), its decisions on each frame, and what an end means in its
 * own words: {@link #goodbye} (its GoAway, if it has one), {@link #isOrderly} and {@link
 * #endsInOrder}.
 *
 * <p>Every end takes one path, {@link #terminate}: the connection closed, an exception below, the
 * handler removed, the peer's GoAway, a violation, a timeout. In this order: the muxer stops reading
 * and its timers; its goodbye frame goes out, flushed; every stream hears of the end (its received
 * bytes go up and it closes, or it gets the cause as {@code exceptionCaught} and closes); the
 * connection's pipeline gets the cause as {@code exceptionCaught}, once, unless the end is orderly;
 * then the connection closes, after the goodbye was written (or its time ran out) and at the end of
 * the read burst, so a handler that closes the connection on hearing of the end loses no frame.
 *
 * <p>Thread safety: the connection's event loop only.
 */
public abstract class StreamMuxer implements StreamOpener {
  /** Bytes of data frames written between two flushes at most, so no connection holds a burst of all windows. */
  private static final int FLUSH_EVERY_BYTES = 256 * 1024;

  /** The muxer's handler's context in the connection's pipeline. */
  protected final ChannelHandlerContext ctx;
  private final ChannelHandler inboundHandler;
  private final LongObjectHashMap<AbstractStreamChannel> streams = new LongObjectHashMap<>();
  private final ArrayDeque<AbstractStreamChannel> readCompletePending = new ArrayDeque<>();
  /** Work put off within a read burst until the frame being read is handled ({@link #later}). */
  private final ArrayDeque<Runnable> afterFrame = new ArrayDeque<>();
  private FrameReader reader;
  private StreamFrameWriter writer;
  private FlowController<?> flow;
  /** The stream the body of the data frame being read is for, or {@code null}. */
  private AbstractStreamChannel bodyStream;
  private boolean readInProgress;
  private boolean flushPending;
  private int unflushedBytes;
  /** Why the session ended, or {@code null} while it runs. */
  private Throwable endCause;
  private boolean inactive;
  private boolean removed;
  /** The write of this side's goodbye frame, or {@code null} before it. */
  private ChannelFuture goodbye;
  private boolean closeScheduled;
  private boolean closeStarted;
  private ChannelPromise closeAtReadEnd;

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
  }

  private static boolean sharable(ChannelHandler handler) {
    return handler instanceof ChannelHandlerAdapter
        ? ((ChannelHandlerAdapter) handler).isSharable()
        : handler.getClass().isAnnotationPresent(ChannelHandler.Sharable.class);
  }

  /** Sets the muxer's frame reader and writer and its flow control; its constructor calls this once. */
  protected final void use(FrameReader reader, StreamFrameWriter writer, FlowController<?> flow) {
    reader.afterEach(this::runPutOff);
    this.reader = reader;
    this.writer = writer;
    this.flow = flow;
  }

  final FlowController<?> flow() {
    return flow;
  }

  final StreamFrameWriter frames() {
    return writer;
  }

  // ---- what a muxer supplies ----

  /** Why the session ends when its connection closed. */
  protected abstract Throwable closedCause();

  /** Why it ends when its handler left the pipeline. */
  protected abstract Throwable removedCause();

  /** {@code stream} closed: the muxer forgets its id and counts it no more. */
  protected abstract void streamClosed(AbstractStreamChannel stream);

  /** Why the session ends when the peer left {@code unread} control frames unread ({@link ControlBacklog}). */
  protected abstract Throwable floodCause(int unread);

  /** The connection is active (now, or already when the handler was added); nothing by default. */
  protected void start() {}

  /** The session ended for {@code cause} and reads no more frames: timers stop, what waits fails. */
  protected void stopped(Throwable cause) {}

  /**
   * Writes this side's last frame for an end with {@code cause} ({@code null}: the application
   * closes the connection), unflushed; returns its write, or {@code null} when there is none (the
   * default: a muxer without a goodbye).
   */
  protected ChannelFuture goodbye(Throwable cause) {
    return null;
  }

  /** How long the goodbye may take to be written before the connection closes anyway. */
  protected Duration goodbyeTimeout() {
    return Duration.ZERO;
  }

  /** Whether {@code cause} is an orderly end: no error, the pipeline is not told. */
  protected boolean isOrderly(Throwable cause) {
    return false;
  }

  /** Whether {@code stream} ends in order for {@code cause} (its bytes go up, no error) or fails with it. */
  protected boolean endsInOrder(AbstractStreamChannel stream, Throwable cause) {
    return isOrderly(cause);
  }

  // ---- the connection's events (its MuxerHandler's calls) ----

  /** Makes this the connection's muxer (where bootstraps find it). */
  public final void attach() {
    ctx.channel().attr(KEY).set(this);
  }

  /** Stops being the connection's muxer. */
  private void detach() {
    ctx.channel().attr(KEY).compareAndSet(this, null);
  }

  /** The connection's bytes: a read burst begins, and flushes and read completes wait for its end. */
  final void read(ByteBuf in) {
    readInProgress = true;
    try {
      reader.read(in);
    } catch (IOException e) {
      terminate(e);
    }
  }

  /** The connection's read burst ended: put-off read completes happen, then one flush, then a put-off close. */
  final void readEnded() {
    try {
      for (AbstractStreamChannel stream; (stream = readCompletePending.poll()) != null; ) {
        stream.readComplete();
      }
    } finally {
      readInProgress = false;
      runPutOff();
      if (flushPending) {
        flushNow();
      }
      ChannelPromise close = closeAtReadEnd;
      if (close != null) {
        closeAtReadEnd = null;
        closeNow(close);
      }
    }
  }

  /** The connection ended, or its input did: no frame comes any more. */
  final void inactive() {
    inactive = true;
    terminate(closedCause());
    detach();
  }

  /** The connection below failed: the session ends with {@code cause}; after the end it passes on. */
  final void exception(Throwable cause) {
    if (endCause == null) {
      terminate(cause);
    } else {
      ctx.fireExceptionCaught(cause);
      closeAfterGoodbye(ctx.newPromise());
    }
  }

  /** The application closes the connection: the muxer's goodbye first, then the close. */
  final void close(ChannelPromise promise) {
    if (endCause == null && goodbye == null && !closeScheduled && !inactive) {
      sayGoodbye(null);
    }
    closeAfterGoodbye(promise);
  }

  /** The muxer's handler left the pipeline. */
  final void removed() {
    removed = true;
    terminate(removedCause());
    detach();
  }

  /** The connection's writability changed. */
  final void writabilityChanged() {
    flow.writabilityChanged();
  }

  // ---- the end ----

  /** Ends the session for {@code cause}, once, whatever ended it (see the class comment). */
  protected final void terminate(Throwable cause) {
    if (endCause != null) {
      return;
    }
    endCause = cause;
    reader.stop();
    stopped(cause);
    boolean connected = !inactive && !removed;
    if (connected && goodbye == null) {
      sayGoodbye(cause);
    }
    for (AbstractStreamChannel stream : snapshot()) {
      if (endsInOrder(stream, cause)) {
        stream.connectionEnded();
      } else {
        stream.connectionFailed(cause);
      }
    }
    flow.ended();
    if (connected) {
      if (!isOrderly(cause)) {
        ctx.fireExceptionCaught(cause);
      }
      closeAfterGoodbye(ctx.newPromise());
    }
  }

  private void sayGoodbye(Throwable cause) {
    goodbye = goodbye(cause);
    if (goodbye != null) {
      flushNow(); // out before anyone hears of the end, even inside a read burst
    }
  }

  /** The peer left {@code unread} control frames unread: the session ends; returns why. */
  final Throwable controlFlood(int unread) {
    Throwable cause = floodCause(unread);
    terminate(cause);
    return cause;
  }

  /** Whether the session ended (see {@link #terminate}). */
  protected final boolean isEnded() {
    return endCause != null;
  }

  /** Whether the connection closed. */
  protected final boolean isInactive() {
    return inactive;
  }

  /** Whether the connection is to close: the application closed it, or the session ended. */
  protected final boolean isClosing() {
    return closeScheduled;
  }

  /** Closes the connection once its goodbye was written (or its time ran out); later requests wait for the same close. */
  private void closeAfterGoodbye(ChannelPromise promise) {
    if (closeScheduled) {
      ctx.channel().closeFuture().addListener(f -> promise.trySuccess());
      return;
    }
    closeScheduled = true;
    if (goodbye == null || goodbye.isDone()) {
      closeNow(promise);
      return;
    }
    ScheduledFuture<?> timeout = ctx.executor().schedule(
        () -> closeNow(promise), goodbyeTimeout().toNanos(), TimeUnit.NANOSECONDS);
    goodbye.addListener(f -> {
      timeout.cancel(false);
      closeNow(promise);
    });
  }

  private void closeNow(ChannelPromise promise) {
    if (closeStarted) {
      return;
    }
    if (readInProgress) {
      closeAtReadEnd = promise; // the burst's frames and read completes first
      return;
    }
    closeStarted = true;
    flushNow(); // what was written before the end goes out first (a close drops unflushed writes)
    ctx.close(promise);
  }

  // ---- a data frame's body on its way to its stream ----

  /** The data frame just read carries bytes for {@code stream}: its body follows. */
  protected final void bodyFor(AbstractStreamChannel stream) {
    bodyStream = stream;
  }

  /** A slice of the body (owned by this call): its stream takes it, unless it closed meanwhile. */
  protected final void bodySlice(ByteBuf slice) {
    AbstractStreamChannel stream = bodyStream;
    if (stream == null || !stream.isOpen()) {
      slice.release();
      return;
    }
    flow.received(stream, slice.readableBytes());
    stream.receive(slice);
  }

  /** The body is whole: its stream may hand it up. Returns the stream, or {@code null} if none is open. */
  protected final AbstractStreamChannel bodyEnd() {
    AbstractStreamChannel stream = bodyStream;
    bodyStream = null;
    if (stream == null || !stream.isOpen()) {
      return null;
    }
    stream.receiveComplete();
    return stream;
  }

  // ---- streams ----

  /** The handler for inbound streams, or {@code null} when they are refused. */
  protected final ChannelHandler inboundHandler() {
    return inboundHandler;
  }

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
   * Registers an added {@code stream}, after {@code init} (an outbound stream's handler, options and
   * attributes) or, for a stream the peer opened ({@code init} null), the inbound handler was added.
   */
  protected final void register(AbstractStreamChannel stream, Consumer<? super StreamChannel> init) {
    if (init != null) {
      init.accept(stream);
    } else if (inboundHandler != null) {
      stream.pipeline().addLast(inboundHandler);
    }
    stream.registered();
  }

  /** Forgets the stream under {@code key} (it closed). */
  protected final void unregister(long key) {
    streams.remove(key);
  }

  final AbstractStreamChannel[] snapshot() {
    return streams.values().toArray(new AbstractStreamChannel[0]);
  }

  /** {@code stream} closed: its credit is free, the muxer forgets it, and what it held may go to others. */
  final void closed(AbstractStreamChannel stream) {
    flow.forget(stream);
    streamClosed(stream);
    flow.freed();
  }

  // ---- read bursts and flushes ----

  /**
   * Runs {@code task} later, never inside the call that asks (a stream's inactive and unregistered
   * events, as Netty fires a channel's): within a read burst once the frame being read is handled,
   * otherwise as a task of the event loop. So a peer that opens and closes streams at the rate it
   * can send frames leaves no closed stream waiting in the event loop's queue behind its burst.
   */
  final void later(Runnable task) {
    if (readInProgress) {
      afterFrame.add(task);
    } else {
      ctx.executor().execute(task);
    }
  }

  private void runPutOff() {
    for (Runnable task; (task = afterFrame.poll()) != null; ) {
      task.run();
    }
  }

  final boolean readInProgress() {
    return readInProgress;
  }

  final void readCompleteLater(AbstractStreamChannel stream) {
    readCompletePending.add(stream);
  }

  /** Flushes the connection now, or at the end of its read burst. */
  public final void flush() {
    if (readInProgress) {
      flushPending = true;
    } else {
      flushNow();
    }
  }

  final void flushNow() {
    flushPending = false;
    unflushedBytes = 0;
    ctx.flush();
  }

  /** Notes {@code bytes} of data written unflushed; a long drain flushes on the way. */
  final void wroteData(int bytes) {
    unflushedBytes += bytes;
    if (unflushedBytes >= FLUSH_EVERY_BYTES) {
      flushNow();
    }
  }
}
