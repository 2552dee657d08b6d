package io.secio.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.CoalescingBufferQueue;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.UnsupportedMessageTypeException;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.netty.util.concurrent.ScheduledFuture;
import io.secio.SecioConfig;
import io.secio.SecioException;
import io.secio.SecioSession;
import io.secio.handshake.HandshakeEngine;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Runs the secio handshake on a channel by driving a {@link HandshakeEngine}. It sits right after a
 * {@link SecioFrameDecoder} (as {@link Secio#client} and {@link Secio#server} arrange).
 *
 * <p>As soon as the channel is active it sends its Propose, without waiting for the peer's (both sides
 * send at once). Each decoded frame goes to the engine and whatever the engine answers is written and
 * flushed, each payload behind its 4-byte length. Application writes made before completion are
 * queued, with their promises, and written in order after it.
 *
 * <p>On success the handler replaces itself with a {@link SecioFrameCodec} (frames after the peer's
 * nonce echo are application frames and reach the codec), writes the queued data through it,
 * completes {@link #handshakeFuture()} and fires a {@link SecioHandshakeCompletionEvent}. On failure
 * (engine error, a frame too long, {@link SecioException.Reason#TIMEOUT} after the configured
 * handshake timeout, {@link SecioException.Reason#CLOSED} if the channel closes, is reset (the
 * {@link IOException} as the cause) or has its input shut down first, {@link
 * SecioException.Reason#TOO_MANY_HANDSHAKES} when a {@link HandshakeLimiter} has no permit) there is
 * one path: fail the future, fire the event, close the channel, and release the queued writes,
 * failing their promises. Either outcome happens exactly once. A handshake failure is reported through the future and the event, not through {@code
 * exceptionCaught}.
 *
 * <p>With auto-read off the handler still requests the reads its handshake needs.
 *
 * <p>Not sharable; all methods run on the channel's event loop. {@link #handshakeFuture()} may be
 * called from any thread once the handler has been added to a pipeline.
 */
public final class SecioHandshakeHandler extends ChannelDuplexHandler {
  private final SecioConfig config;
  private final HandshakeLimiter limiter;
  private final int maxPlaintextPerFrame;

  private ChannelHandlerContext ctx;
  // Volatile: handshakeFuture() may be called from any thread.
  private volatile Promise<SecioSession> handshakePromise;
  private CoalescingBufferQueue queuedWrites;
  private HandshakeEngine engine;
  private ScheduledFuture<?> timeout;
  private Throwable failure;
  private boolean started;
  private boolean done;
  private boolean holdsPermit;
  private boolean readRequested;

  /** A handler without a concurrency bound, as a client uses. */
  public SecioHandshakeHandler(SecioConfig config) {
    this(config, null);
  }

  /** A handler that takes a permit from {@code limiter} ({@code null}: unbounded) for its handshake. */
  public SecioHandshakeHandler(SecioConfig config, HandshakeLimiter limiter) {
    this(config, limiter, SecioFrameCodec.DEFAULT_MAX_PLAINTEXT_PER_FRAME_IN_BYTES);
  }

  /** As above, with the largest plaintext per frame the resulting {@link SecioFrameCodec} sends. */
  public SecioHandshakeHandler(SecioConfig config, HandshakeLimiter limiter, int maxPlaintextPerFrame) {
    this.config = Objects.requireNonNull(config, "config");
    this.limiter = limiter;
    if (maxPlaintextPerFrame < 1) {
      throw new IllegalArgumentException("maxPlaintextPerFrame must be positive: " + maxPlaintextPerFrame);
    }
    this.maxPlaintextPerFrame = maxPlaintextPerFrame;
  }

  /**
   * Completes with the session when the handshake succeeds, or fails with its cause (usually a {@link
   * SecioException}). Its listeners run on the channel's event loop.
   *
   * @throws IllegalStateException before the handler has been added to a pipeline
   */
  public Future<SecioSession> handshakeFuture() {
    if (handshakePromise == null) {
      throw new IllegalStateException("not yet added to a pipeline");
    }
    return handshakePromise;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
    handshakePromise = ctx.executor().newPromise();
    queuedWrites = new CoalescingBufferQueue(ctx.channel(), 4, true);
    ctx.channel().attr(Secio.HANDSHAKE).set(handshakePromise);
    if (ctx.channel().isActive()) {
      // Started from the event loop's next task rather than here, so that a handshake refused at once
      // (no permit) is still reported to the handlers added after this one in the same call.
      ctx.executor().execute(this::start);
    }
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    start();
    super.channelActive(ctx);
  }

  private void start() {
    if (started || done) {
      return;
    }
    started = true;
    if (limiter != null) {
      if (!limiter.tryAcquire()) {
        fail(new SecioException(SecioException.Reason.TOO_MANY_HANDSHAKES,
            "limit " + limiter.maxConcurrentHandshakes()));
        return;
      }
      holdsPermit = true;
    }
    timeout = ctx.executor().schedule(
        () -> fail(new SecioException(SecioException.Reason.TIMEOUT, "after " + config.handshakeTimeout())),
        saturatedNanos(config), TimeUnit.NANOSECONDS);
    try {
      engine = HandshakeEngine.create(config);
      send(engine.start());
    } catch (Throwable t) {
      fail(t);
      return;
    }
    readIfNeeded();
  }

  private static long saturatedNanos(SecioConfig config) {
    try {
      return config.handshakeTimeout().toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof ByteBuf)) {
      ctx.fireChannelRead(msg);
      return;
    }
    byte[] payload;
    ByteBuf frame = (ByteBuf) msg;
    try {
      if (done || engine == null) {
        return;
      }
      payload = ByteBufUtil.getBytes(frame);
    } finally {
      frame.release();
    }
    try {
      send(engine.receive(payload));
      if (engine.isComplete()) {
        complete();
      }
    } catch (Throwable t) {
      fail(t);
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    readIfNeeded();
    ctx.fireChannelReadComplete();
  }

  private void readIfNeeded() {
    // Without auto-read nobody else asks for the handshake's next bytes.
    if (started && !done && !ctx.channel().config().isAutoRead()) {
      ctx.read();
    }
  }

  @Override
  public void read(ChannelHandlerContext ctx) {
    if (!done) {
      // The handshake may consume what this read brings; ask again for the application afterwards.
      readRequested = true;
    }
    ctx.read();
  }

  private void send(List<byte[]> payloads) {
    if (payloads.isEmpty()) {
      return;
    }
    for (byte[] payload : payloads) {
      ByteBuf buf = ctx.alloc().ioBuffer(SecioFrameDecoder.LENGTH_FIELD_SIZE_IN_BYTES + payload.length);
      buf.writeInt(payload.length).writeBytes(payload);
      // A failed write surfaces as exceptionCaught, which fails the handshake.
      ctx.write(buf, ctx.voidPromise());
    }
    ctx.flush();
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    if (!(msg instanceof ByteBuf)) {
      ReferenceCountUtil.release(msg);
      promise.setFailure(new UnsupportedMessageTypeException(msg, ByteBuf.class));
      return;
    }
    if (done) {
      ReferenceCountUtil.release(msg);
      promise.setFailure(failure != null ? failure : new ClosedChannelException());
      return;
    }
    queuedWrites.add((ByteBuf) msg, promise);
  }

  @Override
  public void flush(ChannelHandlerContext ctx) {
    // Application data waits for the handshake; the handshake flushes its own frames in send().
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    fail(new SecioException(SecioException.Reason.CLOSED));
    super.channelInactive(ctx);
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
    if (evt instanceof ChannelInputShutdownEvent && !done) {
      // With half-closure allowed the channel stays open, but no handshake byte can come any more.
      fail(new SecioException(SecioException.Reason.CLOSED, "input shut down during the handshake"));
    }
    super.userEventTriggered(ctx, evt);
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    if (!done) {
      fail(new SecioException(SecioException.Reason.CLOSED, "handler removed before completion"));
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (done) {
      ctx.fireExceptionCaught(cause);
    } else if (cause instanceof IOException && SecioExceptions.find(cause) == null) {
      // A reset (or a write the peer refused) ends the connection as a FIN does: same reason for both.
      fail(new SecioException(SecioException.Reason.CLOSED, cause.getMessage(), cause));
    } else {
      fail(cause);
    }
  }

  private void complete() {
    // Done first: replacing this handler below calls handlerRemoved, which must not fail it.
    done = true;
    stopClock();
    SecioSession session = engine.session();
    ChannelHandlerContext codecCtx;
    SecioFrameCodec codec;
    try {
      codec = new SecioFrameCodec(session, config.maxFrameLength(), maxPlaintextPerFrame);
      SecioFrameDecoder decoder = ctx.pipeline().get(SecioFrameDecoder.class);
      if (decoder != null) {
        decoder.handshakeComplete();
      }
      // Same name, same place: frames after the nonce echo flow from the decoder into the codec.
      ctx.pipeline().replace(this, ctx.name(), codec);
      codecCtx = ctx.pipeline().context(codec);
    } catch (Throwable t) {
      // A failure here still has the one failure path: fail the future, fire the event, close.
      session.destroy();
      failNow(t);
      return;
    }
    // The codec now stands where this handler stood, so queued data enters it directly, in order.
    while (!queuedWrites.isEmpty()) {
      ChannelPromise promise = codecCtx.newPromise();
      ByteBuf buf = queuedWrites.removeFirst(promise);
      codec.write(codecCtx, buf, promise);
    }
    codec.flush(codecCtx);
    handshakePromise.trySuccess(session);
    codecCtx.fireUserEventTriggered(SecioHandshakeCompletionEvent.success(session));
    if (readRequested && !codecCtx.channel().config().isAutoRead()) {
      codecCtx.read();
    }
  }

  private void fail(Throwable t) {
    if (done) {
      return;
    }
    done = true;
    failNow(t);
  }

  private void failNow(Throwable t) {
    SecioException secio = SecioExceptions.find(t);
    failure = secio != null ? secio : t;
    try {
      stopClock();
      if (engine != null) {
        // Wipes the engine's secrets; it keeps its own first failure if it already had one.
        engine.fail(secio != null ? secio
            : new SecioException(SecioException.Reason.CLOSED, "handshake aborted", t));
      }
    } catch (RuntimeException e) {
      failure.addSuppressed(e);
    } finally {
      try {
        handshakePromise.tryFailure(failure);
        ctx.fireUserEventTriggered(SecioHandshakeCompletionEvent.failure(failure));
      } finally {
        queuedWrites.releaseAndFailAll(failure);
        ctx.close();
      }
    }
  }

  private void stopClock() {
    if (timeout != null) {
      timeout.cancel(false);
      timeout = null;
    }
    if (holdsPermit) {
      holdsPermit = false;
      limiter.release();
    }
  }
}
