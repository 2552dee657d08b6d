package io.secio.tentacle;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerAdapter;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.Future;
import io.secio.Dialect;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.netty.NegotiatedProtocol;
import io.secio.netty.Secio;
import io.secio.netty.negotiation.NegotiationStage;
import java.util.Objects;
import java.util.Optional;

/**
 * A session with a tentacle (Nervos CKB) node in one line ({@code docs/STREAMS.md} §8): secio in
 * the tentacle dialect, then yamux in {@link TentacleConfig#yamux()}'s profile, then tentacle's
 * protocol-select on every stream. The same shape as {@link Secio} and {@code Libp2p}:
 *
 * <pre>{@code
 * // dialling a CKB node (in a Bootstrap's ChannelInitializer)
 * ch.pipeline().addLast(Tentacle.client(secioConfig, tentacleConfig, nodePeerId));
 * // accepting tentacle nodes (in a ServerBootstrap's child ChannelInitializer)
 * ch.pipeline().addLast(Tentacle.server(secioConfig, tentacleConfig));
 * // then, off the event loop
 * TentacleSession session = Tentacle.awaitSession(ch);           // throws TentacleException
 * Future<StreamChannel> ping = session.openStream("/ckb/ping", new MyPing());
 * }</pre>
 *
 * <p>The returned handler replaces itself with secio's handlers and the session's handler named
 * {@value #SESSION_NAME}; once secio is done a {@code YamuxHandler} named {@value #YAMUX_NAME} goes in
 * front of that one. The muxer is the last handler that writes to the connection (its bytes are yamux
 * frames); handlers the application adds behind the returned one see the connection's events but
 * write nothing. Each protocol's streams get their {@link TentacleProtocol#handler()} once
 * protocol-select is done.
 *
 * <p><b>One failure path</b>, as {@link Secio}'s: a handshake failure fails {@link
 * #sessionFuture(Channel)} and reaches the handlers behind as a failed {@code
 * SecioHandshakeCompletionEvent} and one {@code exceptionCaught} with its {@code SecioException},
 * and the connection closes; so do a second session from a connected key ({@link
 * TentacleException.Reason#DUPLICATE_SESSION}, after secio's successful event) and a failure of the
 * session (the muxer's {@code YamuxException}, secio's frame failures), on both sides. When the
 * application added no handler behind, the failure ends at the session's handler (one line at
 * DEBUG) instead of Netty's tail. {@link #awaitSession(Channel)} throws every failure as one checked
 * type.
 *
 * <p>The first write is secio's Propose (over 16 bytes), so a tentacle listener, which waits for 16
 * bytes before it starts, never stalls on us; without secio, a stream's SYN and its protocol-select
 * message go out in one flush (76 bytes for {@code /test/echo}).
 *
 * <p>The returned handlers are {@link ChannelHandler.Sharable} and thread-safe.
 */
public final class Tentacle {
  /** Name of the session's handler in the connection's pipeline. */
  public static final String SESSION_NAME = "tentacle";
  /** Name of the yamux handler in the connection's pipeline once the session has started. */
  public static final String YAMUX_NAME = "yamux";

  static final AttributeKey<Future<TentacleSession>> SESSION = AttributeKey.valueOf(Tentacle.class, "session");

  private Tentacle() {}

  /**
   * The dialer's handlers: secio (tentacle dialect) accepting whichever node answers, unless {@code
   * secio} names one; then yamux's client side and protocol-select. Prefer {@link
   * #client(SecioConfig, TentacleConfig, PeerId)} when the node is known.
   *
   * @param secio the secio config; its dialect must be {@link Dialect#TENTACLE}
   * @param config the protocols and limits
   * @return a handler for a client channel's pipeline
   */
  public static ChannelHandler client(SecioConfig secio, TentacleConfig config) {
    return new Installer(Secio.client(tentacleDialect(secio)), config, true);
  }

  /**
   * The dialer's handlers accepting only {@code expectedRemotePeer}: the handshake fails with {@code
   * PEER_ID_MISMATCH} for another.
   *
   * @param secio the secio config; its dialect must be {@link Dialect#TENTACLE}
   * @param config the protocols and limits
   * @param expectedRemotePeer the node dialled, in the tentacle dialect's form (what its {@code
   *     SecioConfig.localPeerId()} gives)
   * @return a handler for a client channel's pipeline
   */
  public static ChannelHandler client(SecioConfig secio, TentacleConfig config, PeerId expectedRemotePeer) {
    Objects.requireNonNull(expectedRemotePeer, "expectedRemotePeer");
    return new Installer(Secio.client(tentacleDialect(secio), expectedRemotePeer), config, true);
  }

  /**
   * The listener's handlers: secio (tentacle dialect), then yamux's server side and
   * protocol-select.
   *
   * @param secio the secio config; its dialect must be {@link Dialect#TENTACLE}
   * @param config the protocols and limits; its {@link TentacleConfig#connectedPeers()} refuses a
   *     second session from a connected key
   * @return a handler for an accepted channel's pipeline
   */
  public static ChannelHandler server(SecioConfig secio, TentacleConfig config) {
    return new Installer(Secio.server(tentacleDialect(secio)), config, false);
  }

  /**
   * tentacle's no-secio mode ({@code HandshakeType::Noop}), the dialer's side: yamux and
   * protocol-select straight on the channel. For tests and trusted links only: nothing is secured.
   *
   * @param config the protocols and limits
   * @return a handler for a client channel's pipeline
   */
  public static ChannelHandler insecureClient(TentacleConfig config) {
    return new Installer(null, config, true);
  }

  /**
   * tentacle's no-secio mode, the listener's side.
   *
   * @param config the protocols and limits
   * @return a handler for an accepted channel's pipeline
   */
  public static ChannelHandler insecureServer(TentacleConfig config) {
    return new Installer(null, config, false);
  }

  /**
   * The session of {@code connection}: completes once secio is done and yamux is on, or fails with
   * what the handlers behind heard: secio's {@code SecioException}, a {@link TentacleException}
   * ({@link TentacleException.Reason#DUPLICATE_SESSION}, {@link TentacleException.Reason#CLOSED}).
   *
   * @param connection a channel one of this class's handlers was added to
   * @return the session's future
   * @throws IllegalStateException if none was
   */
  public static Future<TentacleSession> sessionFuture(Channel connection) {
    Future<TentacleSession> future = connection.attr(SESSION).get();
    if (future == null) {
      throw new IllegalStateException("no tentacle handler on " + connection);
    }
    return future;
  }

  /**
   * Waits for the session of {@code connection}: the blocking form of {@link
   * #sessionFuture(Channel)} for code outside the event loop, bounded by secio's handshake timeout.
   *
   * <pre>{@code
   * try {
   *   TentacleSession session = Tentacle.awaitSession(channel);
   * } catch (TentacleException e) {
   *   log.warn("no session with {}: {}", channel.remoteAddress(), e.getMessage());
   * }
   * }</pre>
   *
   * @param connection a channel one of this class's handlers was added to
   * @return the session
   * @throws TentacleException every failure: its own, and secio's as {@link
   *     TentacleException.Reason#HANDSHAKE_FAILED} with the {@code SecioException} as its cause; an
   *     unchecked exception another handler raised is rethrown as it is
   * @throws InterruptedException if the waiting thread is interrupted
   * @throws IllegalStateException if no handler of this class was added to the channel
   * @throws io.netty.util.concurrent.BlockingOperationException if called on the channel's event loop
   */
  public static TentacleSession awaitSession(Channel connection) throws TentacleException, InterruptedException {
    Future<TentacleSession> session = sessionFuture(connection).await();
    if (session.isSuccess()) {
      return session.getNow();
    }
    throw TentacleException.of(session.cause());
  }

  /**
   * The protocol and version of a stream of a tentacle session: present from the moment the
   * protocol's handler of a stream the peer opened is added (in its {@code initChannel}), and, on a
   * stream this side opened, once its open has completed.
   *
   * @param stream a stream channel
   * @return its protocol, or empty if protocol-select has not chosen one
   */
  public static Optional<NegotiatedProtocol> protocol(Channel stream) {
    return NegotiationStage.agreed(stream);
  }

  private static SecioConfig tentacleDialect(SecioConfig secio) {
    if (!secio.dialect().equals(Optional.of(Dialect.TENTACLE))) {
      throw new IllegalArgumentException(
          "a tentacle session runs secio's tentacle dialect: SecioConfig.Builder.dialect(Dialect.TENTACLE)");
    }
    return secio;
  }

  @ChannelHandler.Sharable
  private static final class Installer extends ChannelHandlerAdapter {
    private final ChannelHandler secio;
    private final TentacleConfig config;
    private final boolean client;

    Installer(ChannelHandler secio, TentacleConfig config, boolean client) {
      this.secio = secio;
      this.config = Objects.requireNonNull(config, "config");
      this.client = client;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      ChannelPipeline pipeline = ctx.pipeline();
      pipeline.replace(this, SESSION_NAME, new SessionHandler(config, client, secio != null));
      if (secio != null) {
        pipeline.addBefore(SESSION_NAME, null, secio);
      }
    }

    @Override
    public String toString() {
      return (client ? "Tentacle.client" : "Tentacle.server") + (secio == null ? "(insecure)" : "");
    }
  }
}
