package io.secio.netty;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerAdapter;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.Future;
import io.secio.HandshakeLimiter;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.handshake.WarmUp;
import io.secio.protocol.SecioException;
import java.util.Objects;
import java.util.Optional;

/**
 * Secures a pipeline in one line:
 *
 * <pre>{@code
 * // client: fails the handshake with PEER_ID_MISMATCH unless the server is who we dialled
 * // (the peer id in the config's dialect's form: a tentacle id for Dialect.TENTACLE)
 * ch.pipeline().addLast(Secio.client(config, serverPeerId), new MyHandler());
 * // server, in a ServerBootstrap's child ChannelInitializer
 * ch.pipeline().addLast(Secio.server(config), new MyHandler());
 * }</pre>
 *
 * <p>The handler these return replaces itself, where it was added, with a {@link SecioFrameDecoder}
 * named {@value #DECODER_NAME} followed by a {@link SecioHandshakeHandler} named {@value #HANDLER_NAME},
 * which on completion becomes a {@link SecioFrameCodec} of the same name. Handlers added after it read
 * and write plaintext {@link io.netty.buffer.ByteBuf}s, and see a {@link SecioHandshakeCompletionEvent};
 * {@link #handshakeFuture(Channel)} gives the outcome as a future, {@link #session(Channel)} the
 * session once it is established.
 *
 * <p><b>One failure path.</b> Whatever goes wrong, a handler after secio learns it the same way:
 * <ul>
 *   <li>a failed handshake (bad signature, wrong or refused peer, timeout, the peer closing first, ...)
 *       fails {@link #handshakeFuture(Channel)}, fires a failed {@link SecioHandshakeCompletionEvent},
 *       then fires {@code exceptionCaught} with the same cause, and closes the channel;
 *   <li>a failed frame after the handshake (too long, too short, not authentic, nonce exhausted) fires
 *       {@code exceptionCaught} and closes the channel; nothing after the bad frame is delivered.
 * </ul>
 * The cause is a {@link SecioException} whose {@link SecioException#reason() reason} says what went
 * wrong, for every failure of secio's own; an exception another handler raised during the handshake
 * fails it too and is passed on as it is. Each failure is fired through {@code exceptionCaught} once.
 * So one {@code exceptionCaught} that closes the channel (and logs the reason) handles both; the
 * future and the event are there for code that waits for the handshake.
 *
 * <p>Every tunable (frame limits, timeout, who may connect, the bound on concurrent handshakes, a
 * handshake executor) lives in the {@link SecioConfig}.
 *
 * <p>The returned handlers are {@link ChannelHandler.Sharable} and thread-safe. Every server handler
 * built from the same config takes permits from that config's {@link SecioConfig#handshakeLimiter()}
 * ({@link SecioConfig#maxConcurrentHandshakes()} handshakes at once), so building one per child
 * channel keeps the bound.
 */
public final class Secio {
  /** Name of the frame decoder in the pipeline. */
  public static final String DECODER_NAME = "secio-decoder";

  /** Name of the handshake handler, and after completion of the frame codec. */
  public static final String HANDLER_NAME = "secio";

  /**
   * The handshake outcome of a channel, set when its {@link SecioHandshakeHandler} is added. Not
   * public: only the handler may set it; users read it through {@link #handshakeFuture(Channel)}.
   */
  static final AttributeKey<Future<SecioSession>> HANDSHAKE =
      AttributeKey.valueOf(Secio.class, "handshake");

  private Secio() {}

  /** The handlers of a dialling side that accepts only {@code expectedRemotePeer}. */
  public static ChannelHandler client(SecioConfig config, PeerId expectedRemotePeer) {
    Objects.requireNonNull(expectedRemotePeer, "expectedRemotePeer");
    return client(config.withExpectedRemotePeer(expectedRemotePeer));
  }

  /**
   * The handlers of a dialling side that accepts whichever peer answers, unless {@code config} names
   * an expected peer. Prefer {@link #client(SecioConfig, PeerId)} when the peer is known.
   */
  public static ChannelHandler client(SecioConfig config) {
    if (config.dialect().isEmpty()) {
      throw new IllegalArgumentException(
          "a dialer states its dialect: SecioConfig.Builder.dialect(...), not anyDialect()");
    }
    return new Installer(config, null);
  }

  /**
   * The handlers of an accepting side, whose handshakes take permits from {@code config}'s {@link
   * SecioConfig#handshakeLimiter()}: the one limiter every server handler built from {@code config}
   * shares. With {@link SecioConfig.Builder#anyDialect()} it answers each dialer in the dialect of its
   * Propose.
   */
  public static ChannelHandler server(SecioConfig config) {
    return new Installer(Objects.requireNonNull(config, "config"), config.handshakeLimiter());
  }

  /**
   * Pays at start-up what the first handshake in a JVM would otherwise pay inside its {@linkplain
   * SecioConfig#handshakeTimeout() timeout}: class loading, the crypto providers (Conscrypt's native
   * library) and the backends' known-answer self-tests. In a fresh JVM on a busy machine that is
   * seconds. Call it once, before binding or dialling, with the config the node will use.
   *
   * <p>It runs {@link WarmUp#run(SecioConfig)} (every primitive the config proposes chosen and
   * self-tested, a handshake rehearsed with the engine), then one handshake through this class's
   * handlers on two in-memory channels per dialect the config speaks, and a frame each way. Nothing
   * goes over a network; the config's verifier, observer, limiter and executor take no part.
   * Thread-safe; a second call costs about two handshakes.
   *
   * @throws SecioException if the rehearsal fails as a real handshake would (a primitive no backend
   *     offers here)
   * @throws IllegalStateException if the backend offers none of the proposed algorithms of a kind
   */
  public static void warmUp(SecioConfig config) throws SecioException {
    WarmUp.run(config);
    EmbeddedRehearsal.run(config);
  }

  /**
   * The handshake outcome of {@code channel}.
   *
   * @throws IllegalStateException if no secio handler has been added to the channel
   */
  public static Future<SecioSession> handshakeFuture(Channel channel) {
    Future<SecioSession> future = channel.attr(HANDSHAKE).get();
    if (future == null) {
      throw new IllegalStateException("no secio handler on " + channel);
    }
    return future;
  }

  /**
   * Waits for the handshake of {@code channel} and returns its session: the blocking form of {@link
   * #handshakeFuture(Channel)} for code outside the event loop, declaring the handshake's failure.
   * The handshake's own timeout ({@link SecioConfig#handshakeTimeout()}) bounds the wait.
   *
   * <pre>{@code
   * try {
   *   SecioSession session = Secio.awaitHandshake(channel);
   * } catch (SecioException e) {
   *   log.warn("no session with {}: {}", channel.remoteAddress(), e.reason());
   * }
   * }</pre>
   *
   * @throws SecioException the handshake's failure; a failure that is not one of secio's own (an
   *     exception another handler raised during the handshake) is rethrown as it is if unchecked,
   *     and otherwise carried by a {@link SecioException.Reason#LOCAL_FAILURE}
   * @throws InterruptedException if the waiting thread is interrupted
   * @throws IllegalStateException if no secio handler has been added to the channel
   * @throws io.netty.util.concurrent.BlockingOperationException if called on the channel's event
   *     loop, where the handshake could never complete
   */
  public static SecioSession awaitHandshake(Channel channel) throws SecioException, InterruptedException {
    Future<SecioSession> handshake = handshakeFuture(channel);
    handshake.await();
    if (handshake.isSuccess()) {
      return handshake.getNow();
    }
    Throwable cause = handshake.cause();
    if (cause instanceof SecioException secio) {
      throw secio;
    }
    if (cause instanceof RuntimeException unchecked) {
      throw unchecked;
    }
    if (cause instanceof Error error) {
      throw error;
    }
    throw new SecioException(SecioException.Reason.LOCAL_FAILURE, cause.toString(), cause);
  }

  /**
   * Ends {@code channel}'s output without losing data: once everything written to it before this
   * call has been sealed and handed to the socket, shuts the socket's output down (a TCP FIN, the
   * peer's half-close). A plain {@link DuplexChannel#shutdownOutput()} instead cuts off what secio
   * has not sealed yet: the codec seals a large write a few frames ahead of the socket. The peer still
   * cannot tell this FIN from a truncation (docs/PROTOCOL.md section 16); an application protocol that
   * must know says so in its own messages. Callable from any thread, during the handshake too.
   *
   * @return completes when the output is shut down; fails with the cause if a write before it failed
   *     (the handshake failed, the connection closed), or if the channel is not a {@link
   *     DuplexChannel}
   */
  public static ChannelFuture shutdownOutput(Channel channel) {
    ChannelPromise done = channel.newPromise();
    // The codec completes an empty write after every write made before it, so this listener runs
    // once all of them have gone to the socket.
    channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(written -> {
      if (!written.isSuccess()) {
        done.tryFailure(written.cause());
      } else if (channel instanceof DuplexChannel duplex) {
        duplex.shutdownOutput(done);
      } else {
        done.tryFailure(new UnsupportedOperationException(channel + " has no output to shut down"));
      }
    });
    return done;
  }

  /**
   * The session established on {@code channel}: present once the handshake has succeeded (from the
   * moment handlers see the {@link SecioHandshakeCompletionEvent}), empty while it runs and after it
   * failed. Callable from any thread.
   *
   * @throws IllegalStateException if no secio handler has been added to the channel
   */
  public static Optional<SecioSession> session(Channel channel) {
    return Optional.ofNullable(handshakeFuture(channel).getNow());
  }

  @ChannelHandler.Sharable
  private static final class Installer extends ChannelHandlerAdapter {
    private final SecioConfig config;
    private final HandshakeLimiter limiter;

    Installer(SecioConfig config, HandshakeLimiter limiter) {
      this.config = config;
      this.limiter = limiter;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      // Runs on the event loop of a registered channel, so the handlers below start right away if the
      // channel is already active (an accepted child), or on channelActive (a dialling client).
      // Replacing rather than adding then removing frees this handler's own name first, so a user may
      // add the installer under the name "secio" (or "secio-decoder").
      ChannelPipeline pipeline = ctx.pipeline();
      pipeline.replace(this, HANDLER_NAME, new SecioHandshakeHandler(config, limiter));
      pipeline.addBefore(HANDLER_NAME, DECODER_NAME,
          new SecioFrameDecoder(config.maxFrameLength(), config.maxHandshakeMessageLength()));
    }

    @Override
    public String toString() {
      return limiter == null ? "Secio.client" : "Secio.server(" + limiter + ")";
    }
  }
}
