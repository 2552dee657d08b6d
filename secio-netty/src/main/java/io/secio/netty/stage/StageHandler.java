package io.secio.netty.stage;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundInvoker;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.channel.PendingWriteQueue;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.UnsupportedMessageTypeException;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.netty.util.concurrent.ScheduledFuture;
import io.secio.HandshakeLimiter;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The shell every negotiating stage of a pipeline shares (secio's handshake, multistream-select,
 * tentacle's protocol-select): a stage adds only its own messages and decisions in {@link #onStart}
 * and {@link #onRead}, and ends with {@link #succeed} or {@link #fail}. The shell owns the rest:
 *
 * <ul>
 *   <li><b>start</b>: when the channel is active (see {@link #defersStart()} for a stage added to an
 *       active channel), or with the first bytes if they come sooner; it takes a permit from the {@link HandshakeLimiter} if
 *       it has one (per source: the channel's remote address), and starts the clock;
 *   <li><b>the timeout</b>: the stage's {@link #timeoutFailure()} when the clock runs out;
 *   <li><b>queued writes</b>: application writes made before the stage ends wait, with their
 *       promises, counted against the channel's writability, and go out after it, in order, through
 *       the handler that takes the stage's place;
 *   <li><b>the swap</b>: on success the next handler takes the stage's place (same name), then the
 *       queued writes, the promise, the completion event, and the bytes read past the stage reach
 *       it in that order;
 *   <li><b>one failure path</b>: fail the promise, fire the failure event, fire {@code
 *       exceptionCaught} with the cause, close the channel, release what is held (queued writes
 *       fail with the cause); exactly once. A stage removed before it ends (a pipeline taken apart)
 *       fails only its promise, since the handlers after it may be gone;
 *   <li><b>reads with auto-read off</b>: it asks for the reads the stage needs, and passes on a read
 *       the application asked for once the stage ends;
 *   <li><b>work elsewhere</b>: {@link #delegate} runs a costly step on an executor and resumes on the
 *       event loop; the permit is held until the step has returned, and a step whose stage ended
 *       before it started is skipped.
 * </ul>
 *
 * <p>Not sharable; every method runs on the channel's event loop. Not API: it is public only for the
 * packages of {@code io.secio.netty}, whose module does not export it. Longer than the stages it
 * serves on purpose: it is everything they share, so that each of them is small.
 *
 * @param <T> what the stage agrees on: a session, a protocol name
 */
public abstract class StageHandler<T> extends ChannelDuplexHandler {
  private final Duration timeout;
  private final HandshakeLimiter limiter;
  private final AttributeKey<Future<T>> outcomeKey;

  private ChannelHandlerContext ctx;
  // Volatile: outcome() may be called from any thread.
  private volatile Promise<T> promise;
  private PendingWriteQueue queuedWrites;
  private ScheduledFuture<?> timer;
  private HandshakeLimiter.Permit permit;
  private Throwable failure;
  private boolean started;
  private boolean done;
  private boolean succeeded;
  private boolean removed;
  private boolean flushRequested;
  private boolean readRequested;
  /** The channel left its event loop: a read it had asked for went with the old registration. */
  private boolean unregistered;
  /** A delegated step has not come back to the event loop yet. */
  private boolean away;
  /** Set once the stage has ended; read by a delegated step before it starts. */
  private volatile boolean ended;

  /**
   * A stage that must end within {@code timeout}, taking a permit from {@code limiter} ({@code
   * null}: none), whose outcome the channel attribute {@code outcomeKey} holds.
   */
  protected StageHandler(Duration timeout, HandshakeLimiter limiter, AttributeKey<Future<T>> outcomeKey) {
    this.timeout = timeout;
    this.limiter = limiter;
    this.outcomeKey = outcomeKey;
  }

  /** The stage's own first messages, once started (with the permit and the clock running). */
  protected abstract void onStart() throws Exception;

  /** Bytes from the peer while the stage runs; the stage owns (and releases) {@code msg}. */
  protected abstract void onRead(ByteBuf msg) throws Exception;

  /** The cause reported when the clock runs out. */
  protected abstract Throwable timeoutFailure();

  /** The cause reported when the limiter has no permit left. */
  protected abstract Throwable refusedFailure(HandshakeLimiter limiter);

  /** The cause reported when the connection ends first; {@code cause} may be null. */
  protected abstract Throwable closedFailure(String why, Throwable cause);

  /** The completion event fired on success. */
  protected abstract Object successEvent(T outcome);

  /** The completion event fired on failure. */
  protected abstract Object failureEvent(Throwable cause);

  /** The cause to report for {@code t} (a stage may unwrap its own exception from a wrapper). */
  protected Throwable reported(Throwable t) {
    return t;
  }

  /** Whether an application write of {@code msg} may wait for the stage; others fail at once. */
  protected boolean queues(Object msg) {
    return true;
  }

  /**
   * Whether a stage added to an active channel starts in the event loop's next task rather than at
   * once: a stage whose start can fail at once (no permit, no algorithm) defers it, so that the
   * handlers added after it in the same call see that failure. Defers unless overridden.
   */
  protected boolean defersStart() {
    return true;
  }

  /** Releases what the stage itself holds, once it has failed (its own buffers, its engine). */
  protected void releaseOnFailure(Throwable cause) {}

  /** The context of the stage, from {@code handlerAdded} on. */
  protected final ChannelHandlerContext context() {
    return ctx;
  }

  /** Whether the stage has ended, either way. */
  protected final boolean isDone() {
    return done;
  }

  /** The outcome; only once added to a pipeline. */
  public final Future<T> outcome() {
    if (promise == null) {
      throw new IllegalStateException("not yet added to a pipeline");
    }
    return promise;
  }

  @Override
  public final void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
    promise = ctx.executor().newPromise();
    // Counted against the channel's writability while they wait; written through this context,
    // which after the swap leads to the handler in the stage's place.
    queuedWrites = new PendingWriteQueue(ctx);
    ctx.channel().attr(outcomeKey).set(promise);
    if (ctx.channel().isActive()) {
      if (defersStart()) {
        ctx.executor().execute(this::start);
      } else {
        start();
      }
    }
  }

  @Override
  public final void channelActive(ChannelHandlerContext ctx) throws Exception {
    start();
    ctx.fireChannelActive();
  }

  @Override
  public final void channelUnregistered(ChannelHandlerContext ctx) {
    unregistered = true;
    ctx.fireChannelUnregistered();
  }

  @Override
  public final void channelRegistered(ChannelHandlerContext ctx) {
    if (unregistered) {
      // Registered again (secio's epoll guard moves a channel so): a read asked for before is gone.
      unregistered = false;
      readIfNeeded();
    }
    ctx.fireChannelRegistered();
  }

  private void start() {
    if (started || done) {
      return;
    }
    started = true;
    if (limiter != null) {
      permit = limiter.tryAcquire(ctx.channel().remoteAddress());
      if (permit == null) {
        fail(refusedFailure(limiter));
        return;
      }
    }
    timer = ctx.executor().schedule(() -> fail(timeoutFailure()), saturatedNanos(timeout),
        TimeUnit.NANOSECONDS);
    try {
      onStart();
    } catch (Throwable t) {
      fail(t);
      return;
    }
    readIfNeeded();
  }

  private static long saturatedNanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  /** Writes and flushes the stage's own bytes; a failed write fails the stage. */
  protected final void send(ByteBuf out) {
    if (!out.isReadable()) {
      out.release();
      return;
    }
    ctx.writeAndFlush(out).addListener(f -> {
      if (!f.isSuccess()) {
        fail(closedFailure("write failed", f.cause()));
      }
    });
  }

  @Override
  public final void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof ByteBuf)) {
      ctx.fireChannelRead(msg);
      return;
    }
    if (!done && !started) {
      // Added to a live channel in the middle of a read: the peer's bytes came before the deferred
      // start ran. Start now rather than lose them.
      start();
    }
    if (done) {
      ReferenceCountUtil.release(msg);
      return;
    }
    try {
      onRead((ByteBuf) msg);
    } catch (Throwable t) {
      fail(t);
    }
  }

  @Override
  public final void channelReadComplete(ChannelHandlerContext ctx) {
    readIfNeeded();
    ctx.fireChannelReadComplete();
  }

  private void readIfNeeded() {
    // Without auto-read nobody else asks for the stage's next bytes.
    if (started && !done && !ctx.channel().config().isAutoRead()) {
      ctx.read();
    }
  }

  @Override
  public final void read(ChannelHandlerContext ctx) {
    if (!done) {
      // The stage may consume what this read brings; ask again for the application afterwards.
      readRequested = true;
    }
    ctx.read();
  }

  @Override
  public final void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    if (succeeded) {
      ctx.write(msg, promise);
    } else if (done) {
      ReferenceCountUtil.release(msg);
      promise.setFailure(failure);
    } else if (!queues(msg)) {
      ReferenceCountUtil.release(msg);
      promise.setFailure(new UnsupportedMessageTypeException(msg, ByteBuf.class));
    } else {
      queuedWrites.add(msg, promise);
    }
  }

  @Override
  public final void flush(ChannelHandlerContext ctx) {
    if (succeeded) {
      ctx.flush();
    } else {
      // The stage flushes its own bytes in send(); application data waits for the stage to end.
      flushRequested = true;
    }
  }

  @Override
  public final void channelInactive(ChannelHandlerContext ctx) throws Exception {
    fail(closedFailure("channel closed", null));
    ctx.fireChannelInactive();
  }

  @Override
  public final void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
    if (evt instanceof ChannelInputShutdownEvent && !done) {
      // With half-closure allowed the channel stays open, but none of the stage's bytes can come.
      fail(closedFailure("input shut down", null));
    }
    ctx.fireUserEventTriggered(evt);
  }

  @Override
  public final void handlerRemoved(ChannelHandlerContext ctx) {
    if (!done) {
      removed = true;
      fail(closedFailure("handler removed before the stage ended", null));
    }
  }

  @Override
  public final void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (done) {
      ctx.fireExceptionCaught(cause);
    } else if (cause instanceof IOException && reported(cause) == cause) {
      // A reset (or a write the peer refused) ends the connection as a FIN does: the same reason.
      fail(closedFailure(cause.getMessage(), cause));
    } else {
      fail(cause);
    }
  }

  /**
   * Ends the stage with {@code outcome}: {@code next} ({@code null}: nothing) takes the stage's place
   * under its name, then the queued writes pass through it and are flushed, the promise succeeds,
   * the success event is fired, and {@code rest} (the peer's bytes read past the stage, released
   * here if {@code next} cannot take them) reaches it, followed by one read-complete.
   */
  protected final void succeed(T outcome, ChannelHandler next, List<?> rest) {
    if (done) {
      rest.forEach(ReferenceCountUtil::release);
      return;
    }
    ChannelPipeline pipeline = ctx.pipeline();
    String before = nameBefore(pipeline, ctx.name());
    // Done first: the swap removes this handler, and handlerRemoved must not fail it.
    done = true;
    succeeded = true;
    try {
      if (next != null) {
        pipeline.replace(this, ctx.name(), next);
      } else {
        pipeline.remove(this);
      }
    } catch (Throwable t) {
      // e.g. a handler that is not @Sharable given for a second channel: still the one path. The
      // pipeline checks that before it changes anything, so this handler is still in its place.
      done = false;
      succeeded = false;
      rest.forEach(ReferenceCountUtil::release);
      fail(t);
      return;
    }
    ended = true;
    stopClock();
    // Outbound, this context now leads to whatever stands in the stage's place (next may have put
    // other handlers there in its handlerAdded). Inbound, only the handler before that place does.
    boolean flush = flushRequested || !queuedWrites.isEmpty();
    queuedWrites.removeAndWriteAll();
    if (flush) {
      ctx.flush();
    }
    promise.trySuccess(outcome);
    ChannelHandlerContext preceding = before == null ? null : pipeline.context(before);
    ChannelInboundInvoker inbound = preceding != null ? preceding : pipeline;
    inbound.fireUserEventTriggered(successEvent(outcome));
    if (!rest.isEmpty()) {
      rest.forEach(inbound::fireChannelRead);
      inbound.fireChannelReadComplete();
    }
    if (readRequested && !ctx.channel().config().isAutoRead()) {
      ctx.read();
    }
  }

  /** The name of the handler before {@code name} in {@code pipeline}; null if it is the first. */
  private static String nameBefore(ChannelPipeline pipeline, String name) {
    List<String> names = pipeline.names();
    int at = names.indexOf(name);
    return at > 0 ? names.get(at - 1) : null;
  }

  /** Ends the stage with {@code t}: the one failure path. Later calls do nothing. */
  protected final void fail(Throwable t) {
    if (done) {
      return;
    }
    done = true;
    ended = true;
    failure = reported(t);
    try {
      stopClock();
      releaseOnFailure(failure);
    } catch (RuntimeException e) {
      failure.addSuppressed(e);
    } finally {
      try {
        promise.tryFailure(failure);
        if (!removed) {
          ctx.fireUserEventTriggered(failureEvent(failure));
          // The same cause through exceptionCaught, as every later failure of the connection arrives.
          ctx.fireExceptionCaught(failure);
        }
      } finally {
        queuedWrites.removeAndFailAll(failure);
        ctx.close();
      }
    }
  }

  /**
   * Runs {@code work} on {@code executor} and then, back on the event loop, {@code resume} with its
   * result. If the work fails, or the stage ends meanwhile, {@code abandon} runs instead (on the
   * event loop, or where the work ran if the event loop is gone), followed by the one failure path
   * with the work's exception if the stage had not ended; the work itself is skipped if the stage
   * ended before it started. The permit stays taken until the work is back. One at a time; the
   * stage does not touch what {@code work} uses until it resumes or is abandoned.
   */
  protected final <R> void delegate(Executor executor, Callable<R> work, Consumer<R> resume,
      Runnable abandon) {
    away = true;
    try {
      executor.execute(() -> {
        R result = null;
        Throwable error = null;
        if (!ended) {
          try {
            result = work.call();
          } catch (Throwable e) {
            error = e;
          }
        }
        R r = result;
        Throwable e = error;
        try {
          ctx.executor().execute(() -> comeBack(r, e, resume, abandon));
        } catch (RejectedExecutionException gone) {
          // The event loop is gone (its channels were closed on the way): nobody resumes this stage.
          abandon.run();
          releasePermit();
        }
      });
    } catch (RuntimeException e) { // usually a RejectedExecutionException
      away = false;
      fail(closedFailure("the executor refused the work", e));
    }
  }

  private <R> void comeBack(R result, Throwable error, Consumer<R> resume, Runnable abandon) {
    away = false;
    if (done) {
      abandon.run();
      releasePermit();
    } else if (error != null) {
      abandon.run();
      fail(error);
    } else {
      try {
        resume.accept(result);
      } catch (Throwable t) {
        fail(t);
      }
    }
  }

  private void stopClock() {
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
    if (!away) {
      releasePermit();
    }
  }

  private void releasePermit() {
    HandshakeLimiter.Permit held = permit;
    if (held != null) {
      permit = null;
      held.release();
    }
  }
}
