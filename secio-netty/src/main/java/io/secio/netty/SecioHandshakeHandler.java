package io.secio.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.util.concurrent.Future;
import io.secio.HandshakeLimiter;
import io.secio.SecioConfig;
import io.secio.SecioObserver;
import io.secio.SecioSession;
import io.secio.frame.CipherPair;
import io.secio.handshake.HandshakeEngine;
import io.secio.netty.stage.StageHandler;
import io.secio.protocol.SecioException.Reason;
import io.secio.protocol.SecioException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * Runs the secio handshake on a channel by driving a {@link HandshakeEngine}; the start, timeout,
 * permit, queued writes, swap and failure path are the {@link StageHandler}'s. It sits right after a
 * {@link SecioFrameDecoder} (as {@link Secio#client} and {@link Secio#server} arrange).
 *
 * <p>As soon as the channel is active it sends its Propose, without waiting for the peer's (both sides
 * send at once), in the config's {@link io.secio.Dialect}. With a config for any dialect ({@link
 * SecioConfig.Builder#anyDialect()}, a listener's) it first reads the dialer's Propose, then answers in
 * that message's dialect ({@link HandshakeEngine#dialectToAnswer}): the bridge that serves libp2p and
 * tentacle dialers on one port. A dialer must not use such a config, or both sides would wait. Each
 * decoded frame goes to the engine and whatever the engine answers is written and flushed, each
 * payload behind its length header. Application writes made before completion wait, and only {@link
 * ByteBuf}s may: nothing leaves in plaintext.
 *
 * <p>On success the handler gives its place to a {@link SecioFrameCodec} that owns the connection's
 * {@link CipherPair} (frames after the peer's nonce echo are application frames and reach the codec),
 * completes {@link #handshakeFuture()} and fires a {@link SecioHandshakeCompletionEvent}. On failure
 * (engine error, a frame too long, {@link Reason#TIMEOUT}, {@link Reason#CLOSED} if the channel
 * closes, is reset (the {@link java.io.IOException} as the cause) or has its input shut down first,
 * {@link Reason#TOO_MANY_HANDSHAKES} when the {@link HandshakeLimiter} has no permit) there is the
 * stage's one path; every failure of secio's own is a {@link SecioException}.
 *
 * <p>With a {@linkplain SecioConfig#handshakeExecutor() handshake executor} the engine's costly steps
 * ({@link HandshakeEngine.Step#isCostly()}: signing and key agreement) run on that executor, one at a
 * time; the handler resumes on the event loop with their result. Frames that arrive meanwhile wait, in
 * order (at most {@value #MAX_FRAMES_WAITING}: a conforming peer sends at most one), and are fed to the
 * engine, or after completion to the codec, when it returns. A timeout, close or failure while a step
 * runs elsewhere ends the handshake at once; the step is skipped if it has not started, the engine is
 * wiped when it returns, and the permit is given back only then, so that work queued on the executor
 * never exceeds the limiter's bound.
 *
 * <p>Not sharable; all methods run on the channel's event loop. {@link #handshakeFuture()} may be
 * called from any thread once the handler has been added to a pipeline.
 */
public final class SecioHandshakeHandler extends StageHandler<SecioSession> {
  /**
   * Frames that may wait for the engine while it works on the handshake executor. A conforming peer
   * sends at most one in that time (its next handshake message); more is a peer flooding a handshake.
   */
  static final int MAX_FRAMES_WAITING = 4;

  private final SecioConfig config;
  private final Executor handshakeExecutor;
  private final SecioObserver observer;
  /** When the handshake started, on {@link System#nanoTime()}; 0 before. */
  private long startedNanos;
  /** Received frames not yet fed to the engine: more than one only while the engine is away. */
  private final ArrayDeque<ByteBuf> waiting = new ArrayDeque<>();
  private HandshakeEngine engine;
  /** The engine is running a step on the handshake executor; only that step may touch it. */
  private boolean engineAway;

  /** A handler without a concurrency bound, as a client uses. */
  SecioHandshakeHandler(SecioConfig config) {
    this(config, null);
  }

  /**
   * A handler that takes a permit from {@code limiter} ({@code null}: unbounded) for its handshake; a
   * server passes {@link SecioConfig#handshakeLimiter()}, as {@link Secio#server} does.
   */
  SecioHandshakeHandler(SecioConfig config, HandshakeLimiter limiter) {
    super(config.handshakeTimeout(), limiter, Secio.HANDSHAKE);
    this.config = config;
    this.handshakeExecutor = config.handshakeExecutor().orElse(null);
    this.observer = GuardedObserver.of(config.observer());
  }

  /**
   * Completes with the session when the handshake succeeds, or fails with its cause (usually a {@link
   * SecioException}). Its listeners run on the channel's event loop.
   *
   * @throws IllegalStateException before the handler has been added to a pipeline
   */
  public Future<SecioSession> handshakeFuture() {
    return outcome();
  }

  @Override
  protected void onStart() {
    startedNanos = System.nanoTime();
    if (config.dialect().isPresent()) {
      engine = HandshakeEngine.create(config);
      send(engine.start());
    }
    // Otherwise the engine starts with the dialer's first message.
  }

  @Override
  protected void onRead(ByteBuf frame) {
    waiting.add(frame);
    if (waiting.size() > MAX_FRAMES_WAITING) {
      fail(new SecioException(Reason.MALFORMED_MESSAGE,
          "more than " + MAX_FRAMES_WAITING + " frames sent ahead of the handshake"));
      return;
    }
    feedWaiting();
  }

  /** Feeds waiting frames to the engine, in order, until none is left, the engine is away or it ends. */
  private void feedWaiting() {
    while (!isDone() && !engineAway && !waiting.isEmpty()) {
      byte[] payload;
      ByteBuf frame = waiting.poll();
      try {
        payload = ByteBufUtil.getBytes(frame);
      } finally {
        frame.release();
      }
      try {
        if (engine == null) {
          // A listener for any dialect answers in the dialect of the dialer's first message.
          engine = HandshakeEngine.create(
              config, HandshakeEngine.dialectToAnswer(config, ByteBuffer.wrap(payload)));
          send(engine.start());
        }
        HandshakeEngine.Step step = engine.feed(payload);
        if (handshakeExecutor != null && step.isCostly()) {
          runElsewhere(step);
        } else {
          advance(step.run());
        }
      } catch (Throwable t) {
        fail(t);
      }
    }
  }

  /** Runs a costly step on the handshake executor; the engine is the step's until it resumes. */
  private void runElsewhere(HandshakeEngine.Step step) {
    engineAway = true;
    HandshakeEngine away = engine;
    delegate(handshakeExecutor, step::run, answer -> {
      engineAway = false;
      advance(answer);
      feedWaiting();
    }, () -> {
      // The handshake ended while the step was away: wipe the engine now that nothing else has it.
      engineAway = false;
      away.fail(new SecioException(Reason.CLOSED, "handshake ended while a step ran elsewhere"));
    });
  }

  private void advance(List<byte[]> answer) {
    send(answer);
    if (engine.isComplete()) {
      complete();
    }
  }

  private void send(List<byte[]> payloads) {
    for (byte[] payload : payloads) {
      send(SecioFrameDecoder.newFrame(context().alloc(), payload.length).writeBytes(payload));
    }
  }

  private void complete() {
    SecioSession session = engine.session();
    CipherPair ciphers = engine.split();
    SecioFrameCodec codec;
    try {
      codec = new SecioFrameCodec(ciphers, config.maxFrameLength(), config.maxPlaintextPerFrame(),
          observer);
    } catch (Throwable t) {
      ciphers.destroy();
      fail(t);
      return;
    }
    SecioFrameDecoder decoder = context().pipeline().get(SecioFrameDecoder.class);
    if (decoder != null) {
      decoder.handshakeComplete();
    }
    // Frames after the nonce echo, and those that waited for an engine away, go to the codec.
    List<ByteBuf> rest = List.copyOf(waiting);
    waiting.clear();
    observer.handshakeSucceeded(session, sinceStart());
    succeed(session, codec, rest);
  }

  @Override
  protected boolean queues(Object msg) {
    return msg instanceof ByteBuf;
  }

  @Override
  protected Throwable reported(Throwable t) {
    SecioException secio = SecioExceptions.find(t);
    return secio != null ? secio : t;
  }

  private Duration sinceStart() {
    return startedNanos == 0 ? Duration.ZERO : Duration.ofNanos(System.nanoTime() - startedNanos);
  }

  @Override
  protected void releaseOnFailure(Throwable cause) {
    observer.handshakeFailed(cause instanceof SecioException secio ? secio.reason()
        : Reason.LOCAL_FAILURE, sinceStart());
    for (ByteBuf frame; (frame = waiting.poll()) != null; ) {
      frame.release();
    }
    if (engine != null && !engineAway) {
      // Wipes the engine's secrets; it keeps its own first failure if it had one. An engine that is
      // away is wiped when its step comes back.
      engine.fail(cause instanceof SecioException secio ? secio
          : new SecioException(Reason.CLOSED, "handshake aborted", cause));
    }
  }

  @Override
  protected Throwable timeoutFailure() {
    return new SecioException(Reason.TIMEOUT, "after " + config.handshakeTimeout());
  }

  @Override
  protected Throwable refusedFailure(HandshakeLimiter limiter) {
    return new SecioException(Reason.TOO_MANY_HANDSHAKES, "limit " + limiter.maxConcurrentHandshakes()
        + ", " + limiter.maxPerSource() + " per source");
  }

  @Override
  protected Throwable closedFailure(String why, Throwable cause) {
    return new SecioException(Reason.CLOSED, why, cause);
  }

  @Override
  protected Object successEvent(SecioSession session) {
    return SecioHandshakeCompletionEvent.success(session);
  }

  @Override
  protected Object failureEvent(Throwable cause) {
    return SecioHandshakeCompletionEvent.failure(cause);
  }
}
