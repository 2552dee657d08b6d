package io.secio.libp2p;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerAdapter;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.Future;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.identity.IdentityPublicKey;
import io.secio.netty.NegotiatedProtocol;
import io.secio.netty.Secio;
import io.secio.netty.multistream.Multistream;
import io.secio.netty.negotiation.NegotiationStage;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A libp2p connection in one line ({@code docs/STREAMS.md} §10): multistream-select picks {@code
 * /secio/1.0.0}, secio runs, multistream-select inside it picks the muxer from {@link
 * Libp2pConfig#muxers()}, and the session serves identify, ping and the configured protocols on the
 * peer's streams. The same shape as {@link Secio} and {@code Tentacle}:
 *
 * <pre>{@code
 * // dialling a libp2p node (in a Bootstrap's ChannelInitializer)
 * ch.pipeline().addLast(Libp2p.client(secioConfig, libp2pConfig, nodePeerId));
 * // accepting libp2p nodes (in a ServerBootstrap's child ChannelInitializer)
 * ch.pipeline().addLast(Libp2p.server(secioConfig, libp2pConfig));
 * // then, off the event loop
 * Libp2pSession node = Libp2p.awaitSession(ch);                  // throws Libp2pException
 * Duration rtt = node.ping().get();
 * Future<StreamChannel> echo = node.openStream("/echo/1.0.0", new MyEcho());
 * }</pre>
 *
 * <p>The handler replaces itself with the stages and the session's handler named {@value
 * #SESSION_NAME}. The muxer is the last handler that writes to the connection; handlers the
 * application adds behind the returned one see the connection's events but write nothing.
 *
 * <p><b>One failure path</b>, as {@link Secio}'s: a failure of secio, of a multistream-select
 * negotiation, or of the muxer reaches the handlers behind as the failed step's completion event
 * ({@code SecioHandshakeCompletionEvent}, {@code NegotiationCompletionEvent}) where it has one, then
 * one {@code exceptionCaught} with its typed error ({@code SecioException}, {@code
 * MultistreamException}, {@code YamuxException}, {@code MplexException}), and the connection closes,
 * on both sides. When the application added no handler behind, the failure ends at the session's
 * handler (one line at DEBUG) instead of Netty's tail. {@link #awaitSession(Channel)} throws every
 * failure as one checked type.
 *
 * <p>The handlers returned here are {@link ChannelHandler.Sharable} and thread-safe.
 */
public final class Libp2p {
  /** The name of the secure channel's stage (multistream-select, then secio) in the pipeline. */
  public static final String SECURITY_NAME = "libp2p-security";
  /** The name of the muxer's stage (multistream-select, then the muxer) in the pipeline. */
  public static final String MUXER_NAME = "libp2p-muxer";
  /** The name of the session's handler behind the muxer: the stack's last. */
  public static final String SESSION_NAME = "libp2p-session";

  static final AttributeKey<Libp2pSession> SESSION = AttributeKey.valueOf(Libp2p.class, "session");

  private Libp2p() {}

  /**
   * The dialling side: secio's initiator accepting whichever peer answers, unless {@code secio} names
   * one; then the muxers proposed in the config's order. Prefer {@link #client(SecioConfig,
   * Libp2pConfig, PeerId)} when the peer is known.
   *
   * @param secio the secio config
   * @param config the muxers, protocols and limits
   * @return a handler for a client channel's pipeline
   */
  public static ChannelHandler client(SecioConfig secio, Libp2pConfig config) {
    Objects.requireNonNull(secio, "secio");
    return new Installer(config, secio.identity().publicKey(), true,
        () -> Multistream.initiator(Multistream.SECIO, Secio.client(secio)));
  }

  /**
   * The dialling side accepting only {@code expectedRemotePeer}: the handshake fails with {@code
   * PEER_ID_MISMATCH} for another.
   *
   * @param secio the secio config
   * @param config the muxers, protocols and limits
   * @param expectedRemotePeer the node dialled
   * @return a handler for a client channel's pipeline
   */
  public static ChannelHandler client(SecioConfig secio, Libp2pConfig config, PeerId expectedRemotePeer) {
    Objects.requireNonNull(secio, "secio");
    Objects.requireNonNull(expectedRemotePeer, "expectedRemotePeer");
    return new Installer(config, secio.identity().publicKey(), true,
        () -> Multistream.secioInitiator(secio, expectedRemotePeer));
  }

  /**
   * The accepting side: secio's responder, then any of the config's muxers.
   *
   * @param secio the secio config
   * @param config the muxers, protocols and limits
   * @return a handler for an accepted channel's pipeline
   */
  public static ChannelHandler server(SecioConfig secio, Libp2pConfig config) {
    Objects.requireNonNull(secio, "secio");
    return new Installer(config, secio.identity().publicKey(), false, () -> Multistream.secioResponder(secio));
  }

  /**
   * The no-secio mode, the dialling side: only the muxer's negotiation (this side proposes) and the
   * protocols, over a channel that is secured otherwise or is plaintext on purpose (a test against a
   * bare muxer). identify then sends no key and {@link Libp2pSession#identify()} fails.
   *
   * @param config the muxers, protocols and limits
   * @return a handler for a client channel's pipeline
   */
  public static ChannelHandler insecureClient(Libp2pConfig config) {
    return new Installer(config, null, true, null);
  }

  /**
   * The no-secio mode, the accepting side.
   *
   * @param config the muxers, protocols and limits
   * @return a handler for an accepted channel's pipeline
   */
  public static ChannelHandler insecureServer(Libp2pConfig config) {
    return new Installer(config, null, false, null);
  }

  /**
   * The session of {@code connection}: completes once the muxer is agreed, or fails with what the
   * handlers behind heard: secio's {@code SecioException}, multistream-select's {@code
   * MultistreamException}, or a {@link Libp2pException} ({@link Libp2pException.Reason#CONNECTION_CLOSED}).
   *
   * @param connection a channel one of this class's handlers was added to
   * @return the session's future
   * @throws IllegalStateException if none was
   */
  public static Future<Libp2pSession> sessionFuture(Channel connection) {
    return session(connection).ready();
  }

  /**
   * Waits for the session of {@code connection}: the blocking form of {@link
   * #sessionFuture(Channel)} for code outside the event loop, bounded by secio's handshake timeout
   * and the negotiations' ({@link Libp2pConfig#negotiationTimeout()}).
   *
   * <pre>{@code
   * try {
   *   Libp2pSession session = Libp2p.awaitSession(channel);
   * } catch (Libp2pException e) {
   *   log.warn("no session with {}: {}", channel.remoteAddress(), e.getMessage());
   * }
   * }</pre>
   *
   * @param connection a channel one of this class's handlers was added to
   * @return the session
   * @throws Libp2pException every failure: its own, secio's as {@link
   *     Libp2pException.Reason#HANDSHAKE_FAILED} and multistream-select's as {@link
   *     Libp2pException.Reason#NEGOTIATION_FAILED}, with the layer's exception as the cause; an
   *     unchecked exception another handler raised is rethrown as it is
   * @throws InterruptedException if the waiting thread is interrupted
   * @throws IllegalStateException if no handler of this class was added to the channel
   * @throws io.netty.util.concurrent.BlockingOperationException if called on the channel's event loop
   */
  public static Libp2pSession awaitSession(Channel connection) throws Libp2pException, InterruptedException {
    Future<Libp2pSession> session = sessionFuture(connection).await();
    if (session.isSuccess()) {
      return session.getNow();
    }
    throw Libp2pException.of(session.cause());
  }

  /**
   * The protocol of a stream of a libp2p session, as multistream-select agreed it: present from the
   * moment the protocol's handler of a stream the peer opened is added, and, on a stream this side
   * opened, once its open has completed.
   *
   * @param stream a stream channel
   * @return its protocol, or empty if multistream-select has not agreed on one
   */
  public static Optional<NegotiatedProtocol> protocol(Channel stream) {
    return NegotiationStage.agreed(stream);
  }

  /** The session object of a connection, before it is ready too. */
  static Libp2pSession session(Channel connection) {
    Libp2pSession session = connection.attr(SESSION).get();
    if (session == null) {
      throw new IllegalStateException("no libp2p handler on " + connection);
    }
    return session;
  }

  @ChannelHandler.Sharable
  private static final class Installer extends ChannelHandlerAdapter {
    private final Libp2pConfig config;
    private final IdentityPublicKey localKey;
    private final boolean initiator;
    private final Supplier<ChannelHandler> security;

    Installer(Libp2pConfig config, IdentityPublicKey localKey, boolean initiator, Supplier<ChannelHandler> security) {
      this.config = Objects.requireNonNull(config, "config");
      this.localKey = localKey;
      this.initiator = initiator;
      this.security = security;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      Libp2pSession session = new Libp2pSession(ctx.channel(), config, localKey, initiator);
      ctx.channel().attr(SESSION).set(session);
      Multistream.Builder muxers = initiator ? Multistream.initiator() : Multistream.responder();
      for (Muxer muxer : config.muxers()) {
        muxers.protocol(muxer.protocolId(), () -> session.muxerHandler(muxer));
      }
      muxers.timeout(config.negotiationTimeout());
      // In order, front to back: on an active channel a stage starts as it is added, and the
      // muxer's opening must find the secure channel's stage in front of it to wait in its queue.
      ChannelPipeline p = ctx.pipeline();
      String last = ctx.name();
      if (security != null) {
        p.addAfter(last, SECURITY_NAME, security.get());
        last = SECURITY_NAME;
      }
      p.addAfter(last, MUXER_NAME, muxers.build());
      p.addAfter(MUXER_NAME, SESSION_NAME, new SessionEvents(session));
      p.remove(this);
    }

    @Override
    public String toString() {
      return "Libp2p." + (security == null ? (initiator ? "insecureClient" : "insecureServer")
          : (initiator ? "client" : "server")) + config.muxers();
    }
  }
}
