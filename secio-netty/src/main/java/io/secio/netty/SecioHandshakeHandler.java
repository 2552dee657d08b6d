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
import io.secio.HandshakeLimiter;
import io.secio.SecioConfig;
import io.secio.SecioException;
import io.secio.SecioSession;
import io.secio.frame.CipherPair;
import io.secio.handshake.HandshakeEngine;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Runs the secio handshake on a channel by driving a {@link HandshakeEngine}. It sits right after a
 * {@link SecioFrameDecoder} (as {@link Secio#client} and {@link Secio#server} arrange).
 *
 * <p>As soon as the channel is active it sends its Propose, without waiting for the peer's (both sides
 * send at once), in the config's {@link io.secio.Dialect}. With a config for any dialect ({@link
 * SecioConfig.Builder#anyDialect()}, a listener's) it first reads the dialer's Propose, then answers in
 * that message's dialect ({@link HandshakeEngine#dialectToAnswer}): the bridge that serves libp2p and
 * tentacle dialers on one port. A dialler must not use such a config, or both sides would wait. Each decoded frame goes to the engine and whatever the engine answers is written and
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
 * one path: fail the future, fire the event, fire {@code exceptionCaught} with the cause (a {@link
 * SecioException} for every failure of secio's own), close the channel, and release the queued writes,
 * failing their promises. Either outcome happens exactly once. So a handshake failure reaches the
 * handlers after this one as a frame failure later does: through {@code exceptionCaught}. The one
 * exception is this handler being removed before completion (as Netty does, from the tail, when a
 * connection never becomes active): then the handlers after it may be gone, and only the future
 * fails, with {@link SecioException.Reason#CLOSED}.
 *
 * <p>With a {@linkplain SecioConfig#handshakeExecutor() handshake executor} the engine's steps that
 * sign and agree on keys (the answers to the peer's Propose and Exchange) run on that executor, one at
 * a time; the handler resumes on the event loop with their result. Frames that arrive meanwhile wait,
 * in order (at most {@value #MAX_FRAMES_WAITING}: a conforming peer sends at most one), and are fed to
 * the engine, or after completion to the codec, when it returns. A timeout, close or failure while a
 * step runs elsewhere completes the handshake at once; the engine is wiped when the step returns.
 *
 * <p>With auto-read off the handler still requests the reads its handshake needs.
 *
 * <p>Not sharable; all methods run on the channel's event loop. {@link #handshakeFuture()} may be
 * called from any thread once the handler has been added to a pipeline.
 */
public final class SecioHandshakeHandler extends ChannelDuplexHandler {
  /**
   * Frames that may wait for the engine while it works on the handshake executor. A conforming peer
   * sends at most one in that time (its next handshake message); more is a peer flooding a handshake.
   */
  static final int MAX_FRAMES_WAITING = 4;

  private final SecioConfig config;
  private final HandshakeLimiter limiter;
  private final Executor handshakeExecutor;

  private ChannelHandlerContext ctx;
  // Volatile: handshakeFuture() may be called from any thread.
  private volatile Promise<SecioSession> handshakePromise;
  private CoalescingBufferQueue queuedWrites;
  private HandshakeEngine engine;
  /** Received frames not yet fed to the engine: more than one only while the engine is away. */
  private final ArrayDeque<ByteBuf> waiting = new ArrayDeque<>();
  /** The engine is running a step on the handshake executor; only that step may touch it. */
  private boolean engineAway;
  private ScheduledFuture<?> timeout;
  private Throwable failure;
  private boolean started;
  private boolean done;
  private boolean holdsPermit;
  private boolean readRequested;
  // Set once this handler leaves the pipeline: the handlers after it may be gone already.
  private boolean removed;

  /** A handler without a concurrency bound, as a client uses. */
  SecioHandshakeHandler(SecioConfig config) {
    this(config, null);
  }

  /**
   * A handler that takes a permit from {@code limiter} ({@code null}: unbounded) for its handshake; a
   * server passes {@link SecioConfig#handshakeLimiter()}, as {@link Secio#server} does.
   */
  SecioHandshakeHandler(SecioConfig config, HandshakeLimiter limiter) {
    this.config = Objects.requireNonNull(config, "config");
    this.limiter = limiter;
    this.handshakeExecutor = config.handshakeExecutor().orElse(null);
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
      // (no permit) is still reported to the handlers added after this one in the same call. A frame
      // that arrives before that task runs starts the handshake itself (channelRead).
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
      if (config.dialect().isPresent()) {
        engine = HandshakeEngine.create(config);
        send(engine.start());
      }
      // Otherwise the engine starts with the dialer's first message (channelRead).
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
    ByteBuf frame = (ByteBuf) msg;
    if (!done && !started) {
      // Added to a live channel in the middle of a read (e.g. right behind multistream-select): the
      // peer's Propose came before the deferred start() ran. Start now rather than lose it.
      start();
    }
    if (done) {
      frame.release();
      return;
    }
    waiting.add(frame);
    if (waiting.size() > MAX_FRAMES_WAITING) {
      fail(new SecioException(SecioException.Reason.MALFORMED_MESSAGE,
          "more than " + MAX_FRAMES_WAITING + " frames sent ahead of the handshake"));
      return;
    }
    feedWaiting();
  }

  /** Feeds waiting frames to the engine, in order, until none is left, the engine is away or it ends. */
  private void feedWaiting() {
    while (!done && !engineAway && !waiting.isEmpty()) {
      byte[] payload;
      ByteBuf frame = waiting.poll();
      try {
        payload = ByteBufUtil.getBytes(frame);
      } finally {
        frame.release();
      }
      if (engine == null && !startEngineFor(payload)) {
        return;
      }
      if (handshakeExecutor != null && signsOrAgrees(engine.state())) {
        delegate(payload);
      } else {
        try {
          advance(engine.receive(payload));
        } catch (Throwable t) {
          fail(t);
        }
      }
    }
  }

  /**
   * A listener for any dialect starts its engine with the dialer's first message, in that message's
   * dialect; returns whether it did (it fails the handshake otherwise).
   */
  private boolean startEngineFor(byte[] payload) {
    try {
      engine = HandshakeEngine.create(
          config, HandshakeEngine.dialectToAnswer(config, ByteBuffer.wrap(payload)));
      send(engine.start());
      return true;
    } catch (Throwable t) {
      fail(t);
      return false;
    }
  }

  /** Whether the engine's answer in {@code state} costs a signature or an ECDH (the nonce echo does not). */
  private static boolean signsOrAgrees(HandshakeEngine.State state) {
    return state == HandshakeEngine.State.AWAITING_PROPOSE
        || state == HandshakeEngine.State.AWAITING_EXCHANGE;
  }

  private void advance(List<byte[]> answer) {
    send(answer);
    if (engine.isComplete()) {
      complete();
    }
  }

  /**
   * Runs one engine step on the handshake executor. The engine is single-threaded: from here until
   * {@link #resume} runs on the event loop, only that step touches it (the executor's hand-over and
   * the event loop's give the happens-before edges).
   */
  private void delegate(byte[] payload) {
    engineAway = true;
    HandshakeEngine away = engine;
    try {
      handshakeExecutor.execute(() -> {
        List<byte[]> answer = null;
        Throwable error = null;
        try {
          answer = away.receive(payload);
        } catch (Throwable t) {
          error = t;
        }
        List<byte[]> result = answer;
        Throwable cause = error;
        try {
          ctx.executor().execute(() -> resume(result, cause));
        } catch (RejectedExecutionException e) {
          // The event loop is gone (its channels were closed and failed on the way): nobody will look
          // at this engine again, so wipe it here.
          away.fail(new SecioException(SecioException.Reason.CLOSED, "event loop shut down", e));
        }
      });
    } catch (RuntimeException e) { // usually a RejectedExecutionException
      engineAway = false;
      fail(new SecioException(SecioException.Reason.CLOSED, "handshake executor refused the work", e));
    }
  }

  /** Back on the event loop with the result of a delegated step. */
  private void resume(List<byte[]> answer, Throwable error) {
    engineAway = false;
    if (done) {
      // Failed (timeout, close) while the step ran: its answer is dropped and the engine wiped now.
      engine.fail(failure instanceof SecioException ? (SecioException) failure
          : new SecioException(SecioException.Reason.CLOSED, "handshake aborted", failure));
      return;
    }
    if (error != null) {
      fail(error);
      return;
    }
    try {
      advance(answer);
    } catch (Throwable t) {
      fail(t);
    }
    feedWaiting();
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
      ByteBuf buf = SecioFrameDecoder.newFrame(ctx.alloc(), payload.length).writeBytes(payload);
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
    removed = true;
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
    CipherPair ciphers = engine.split();
    ChannelHandlerContext codecCtx;
    SecioFrameCodec codec;
    try {
      codec = new SecioFrameCodec(ciphers, config.maxFrameLength(), config.maxPlaintextPerFrame());
      SecioFrameDecoder decoder = ctx.pipeline().get(SecioFrameDecoder.class);
      if (decoder != null) {
        decoder.handshakeComplete();
      }
      // Same name, same place: frames after the nonce echo flow from the decoder into the codec.
      ctx.pipeline().replace(this, ctx.name(), codec);
      codecCtx = ctx.pipeline().context(codec);
    } catch (Throwable t) {
      // A failure here still has the one failure path: fail the future, fire the event, close.
      ciphers.destroy();
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
    // Application frames that arrived while the engine was away go where the decoder now sends them.
    if (!waiting.isEmpty()) {
      while (!waiting.isEmpty()) {
        codec.channelRead(codecCtx, waiting.poll());
      }
      codecCtx.fireChannelReadComplete();
    }
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
      if (engine != null && !engineAway) {
        // Wipes the engine's secrets; it keeps its own first failure if it already had one. An engine
        // that is away is wiped by resume() when its step returns.
        engine.fail(secio != null ? secio
            : new SecioException(SecioException.Reason.CLOSED, "handshake aborted", t));
      }
    } catch (RuntimeException e) {
      failure.addSuppressed(e);
    } finally {
      try {
        handshakePromise.tryFailure(failure);
        // A pipeline that is taken apart (a connection that never became active) removes its handlers
        // from the tail: events fired now would reach only Netty's tail, so the future alone reports.
        if (!removed) {
          ctx.fireUserEventTriggered(SecioHandshakeCompletionEvent.failure(failure));
          // The same cause through exceptionCaught, as a frame failure after the handshake arrives.
          ctx.fireExceptionCaught(failure);
        }
      } finally {
        releaseWaiting();
        queuedWrites.releaseAndFailAll(failure);
        ctx.close();
      }
    }
  }

  private void releaseWaiting() {
    for (ByteBuf frame; (frame = waiting.poll()) != null; ) {
      frame.release();
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
