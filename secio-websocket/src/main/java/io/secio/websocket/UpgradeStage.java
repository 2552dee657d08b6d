package io.secio.websocket;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundInvoker;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.channel.PendingWriteQueue;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.PrematureChannelClosureException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.netty.util.concurrent.ScheduledFuture;
import io.secio.websocket.WebSocketException.Reason;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The shell of the stages that come before the byte stream: the client's and the server's
 * handshake, and the one-port listener's choice between TCP and WebSocket. A stage adds its own
 * messages in {@link #onStart} and {@link #onRead} and ends with {@link #succeed} or {@link #fail};
 * the shell owns the rest:
 *
 * <ul>
 *   <li>the clock: started with the channel (or when added to an active one), the stage's {@link
 *       #timeoutFailure()} when it runs out;
 *   <li>queued writes: what the handlers after the stage write before it ends waits, with its
 *       promise, and goes out in order through the handler that takes the stage's place;
 *   <li>one failure path: fail the promise, let the stage answer ({@link #onFailure}), fire {@code
 *       exceptionCaught} once with the typed cause, fail the queued writes, close; exactly once.
 * </ul>
 *
 * <p>Not sharable; every method runs on the channel's event loop.
 */
abstract class UpgradeStage extends ChannelDuplexHandler {
  private final WebSocketConfig config;
  private final AttributeKey<Future<Void>> outcomeKey;

  private ChannelHandlerContext ctx;
  private Promise<Void> promise;
  private PendingWriteQueue queued;
  private ScheduledFuture<?> timer;
  private boolean started;
  private boolean done;
  private boolean flushRequested;

  /** A stage of {@code config}'s timeout whose outcome {@code outcomeKey} holds ({@code null}: none). */
  UpgradeStage(WebSocketConfig config, AttributeKey<Future<Void>> outcomeKey) {
    this.config = config;
    this.outcomeKey = outcomeKey;
  }

  /** The stage's own first step, once the channel is active. */
  abstract void onStart(ChannelHandlerContext ctx) throws Exception;

  /** A message from the peer while the stage runs; the stage owns (and releases) it. */
  abstract void onRead(ChannelHandlerContext ctx, Object msg) throws Exception;

  /** The cause reported when the clock runs out. */
  abstract WebSocketException timeoutFailure();

  /** The stage's answer to its own failure (an HTTP error response) and the release of what it holds. */
  void onFailure(ChannelHandlerContext ctx, WebSocketException cause) {}

  final WebSocketConfig config() {
    return config;
  }

  @Override
  public final void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
    promise = ctx.executor().newPromise();
    queued = new PendingWriteQueue(ctx);
    if (outcomeKey != null) {
      ctx.channel().attr(outcomeKey).set(promise);
    }
    if (ctx.channel().isActive()) {
      start();
    }
  }

  @Override
  public final void channelActive(ChannelHandlerContext ctx) throws Exception {
    start();
    ctx.fireChannelActive();
  }

  private void start() {
    if (started || done) {
      return;
    }
    started = true;
    timer = ctx.executor().schedule(() -> fail(timeoutFailure()), config.handshakeTimeout().toNanos(),
        TimeUnit.NANOSECONDS);
    try {
      onStart(ctx);
    } catch (Exception e) {
      fail(new WebSocketException(Reason.CLOSED, "could not start: " + e, e));
      return;
    }
    readIfNeeded();
  }

  @Override
  public final void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (done) {
      ReferenceCountUtil.release(msg);
      return;
    }
    start();
    try {
      onRead(ctx, msg);
    } catch (Exception e) {
      fail(e instanceof WebSocketException w ? w : new WebSocketException(Reason.CLOSED, e.toString(), e));
    }
  }

  @Override
  public final void channelReadComplete(ChannelHandlerContext ctx) {
    readIfNeeded();
    ctx.fireChannelReadComplete();
  }

  private void readIfNeeded() {
    // Without auto-read nobody else asks for the stage's bytes.
    if (started && !done && !ctx.channel().config().isAutoRead()) {
      ctx.read();
    }
  }

  @Override
  public final void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    if (done) {
      ReferenceCountUtil.release(msg);
      promise.setFailure(this.promise.cause());
    } else {
      queued.add(msg, promise);
    }
  }

  @Override
  public final void flush(ChannelHandlerContext ctx) {
    // The stage flushes its own messages; the application's wait for its end.
    flushRequested = true;
  }

  @Override
  public final void channelInactive(ChannelHandlerContext ctx) throws Exception {
    fail(new WebSocketException(Reason.CLOSED, "the connection closed during the handshake"));
    ctx.fireChannelInactive();
  }

  @Override
  public final void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
    if (evt instanceof ChannelInputShutdownEvent) {
      fail(new WebSocketException(Reason.CLOSED, "the peer shut its output during the handshake"));
    }
    ctx.fireUserEventTriggered(evt);
  }

  @Override
  public final void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (done) {
      ctx.fireExceptionCaught(cause);
    } else {
      fail(cause instanceof WebSocketException w ? w
          : new WebSocketException(Reason.CLOSED, "the connection failed during the handshake: " + cause, cause));
    }
  }

  @Override
  public final void handlerRemoved(ChannelHandlerContext ctx) {
    if (!done) {
      // Taken out of a pipeline before it ended: the handlers after it may be gone, so tell no one.
      done = true;
      stopClock();
      WebSocketException removed = new WebSocketException(Reason.CLOSED, "removed before the handshake ended");
      promise.tryFailure(removed);
      onFailure(ctx, removed);
      queued.removeAndFailAll(removed);
    }
  }

  /**
   * The inbound invoker that reaches the stage's place from the front: the handler before it, or
   * the pipeline's head. Taken before the stage changes the pipeline.
   */
  final ChannelInboundInvoker before() {
    List<String> names = ctx.pipeline().names();
    int at = names.indexOf(ctx.name());
    return at > 0 ? ctx.pipeline().context(names.get(at - 1)) : ctx.pipeline();
  }

  /**
   * Ends the stage: {@code next} ({@code null}: nothing) takes its place under its name, the queued
   * writes pass through it and are flushed, {@code delivered} runs (it hands on the bytes read past
   * the stage), and the promise succeeds.
   */
  final void succeed(ChannelHandler next, Runnable delivered) {
    if (done) {
      return;
    }
    done = true;
    stopClock();
    ChannelPipeline pipeline = ctx.pipeline();
    if (next != null) {
      pipeline.replace(this, ctx.name(), next);
    } else {
      pipeline.remove(this);
    }
    // Outbound, the removed context now leads to what stands in the stage's place.
    boolean flush = flushRequested || !queued.isEmpty();
    queued.removeAndWriteAll();
    if (flush) {
      ctx.flush();
    }
    delivered.run();
    promise.trySuccess(null);
  }

  /** Ends the stage with {@code cause}: the one failure path. Later calls do nothing. */
  final void fail(WebSocketException cause) {
    if (done) {
      return;
    }
    done = true;
    stopClock();
    try {
      promise.tryFailure(cause);
      onFailure(ctx, cause);
      ctx.fireExceptionCaught(cause);
    } finally {
      queued.removeAndFailAll(cause);
      ctx.close();
    }
  }

  /**
   * The failure for an HTTP head ({@code "request"} or {@code "response"}) Netty's decoder could not
   * read: too long, cut short by the connection's end, or not HTTP.
   */
  static WebSocketException unreadable(String head, Throwable cause) {
    if (cause instanceof TooLongFrameException) {
      return new WebSocketException(Reason.HANDSHAKE_TOO_LONG, "the upgrade " + head + "'s head is too long", cause);
    }
    if (cause instanceof PrematureChannelClosureException) {
      return new WebSocketException(Reason.CLOSED, "the connection closed within the upgrade " + head, cause);
    }
    return new WebSocketException(Reason.HANDSHAKE_REFUSED, "not an HTTP " + head + ": " + cause.getMessage(), cause);
  }

  private void stopClock() {
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
  }
}
