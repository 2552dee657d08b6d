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
import io.secio.netty.Secio;
import java.util.Objects;
import java.util.Optional;

/**
 * A session with a tentacle (Nervos CKB) node in one line ({@code docs/STREAMS.md} §8): secio in
 * the tentacle dialect, then yamux in {@link TentacleConfig#yamux()}'s profile, then tentacle's
 * protocol-select on every stream, beside {@link Secio#client}/{@link Secio#server}:
 *
 * <pre>{@code
 * // dialling a CKB node (in a Bootstrap's ChannelInitializer)
 * ch.pipeline().addLast(Tentacle.client(secioConfig, nodePeerId, tentacleConfig));
 * TentacleSession session = Tentacle.sessionFuture(ch).sync().getNow();
 * ProtocolStream ping = session.open("/ckb/ping").sync().getNow();
 * // accepting tentacle nodes (in a ServerBootstrap's child ChannelInitializer)
 * ch.pipeline().addLast(Tentacle.server(secioConfig, tentacleConfig));
 * }</pre>
 *
 * <p>The returned handler replaces itself with secio's handlers and a session starter named {@value
 * #SESSION_NAME}; once secio is done the starter gives way to a {@code YamuxHandler} named {@value
 * #YAMUX_NAME}, which must stay the last handler of the connection: its bytes are yamux frames. Each
 * protocol's streams get their {@link TentacleProtocol#handler()} once protocol-select is done.
 *
 * <p>The first write is secio's Propose (over 16 bytes), so a tentacle listener, which waits for 16
 * bytes before it starts, never stalls on us; without secio, a stream's SYN and its protocol-select
 * message go out in one flush (76 bytes for {@code /test/echo}).
 *
 * <p>The returned handlers are {@link ChannelHandler.Sharable} and thread-safe.
 */
public final class Tentacle {
  /** Name of the session starter in the connection's pipeline. */
  public static final String SESSION_NAME = "tentacle";
  /** Name of the yamux handler in the connection's pipeline once the session has started. */
  public static final String YAMUX_NAME = "yamux";

  static final AttributeKey<Future<TentacleSession>> SESSION = AttributeKey.valueOf(Tentacle.class, "session");

  private Tentacle() {}

  /**
   * The dialer's handlers: secio (tentacle dialect) accepting only {@code expectedRemotePeer}, then
   * yamux's client side and protocol-select.
   *
   * @param secio the secio config; its dialect must be {@link Dialect#TENTACLE}
   * @param expectedRemotePeer the node dialled, in the tentacle dialect's form
   * @param config the protocols and limits
   * @return a handler for a client channel's pipeline
   */
  public static ChannelHandler client(SecioConfig secio, PeerId expectedRemotePeer, TentacleConfig config) {
    Objects.requireNonNull(expectedRemotePeer, "expectedRemotePeer");
    return new Installer(Secio.client(tentacleDialect(secio), expectedRemotePeer), config, true);
  }

  /**
   * The dialer's handlers accepting whichever node answers (unless {@code secio} names one).
   *
   * @param secio the secio config; its dialect must be {@link Dialect#TENTACLE}
   * @param config the protocols and limits
   * @return a handler for a client channel's pipeline
   */
  public static ChannelHandler client(SecioConfig secio, TentacleConfig config) {
    return new Installer(Secio.client(tentacleDialect(secio)), config, true);
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
   * secio's failure, {@link TentacleException.Reason#DUPLICATE_SESSION} or {@link
   * TentacleException.Reason#CLOSED}.
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
   * The protocol and version of a stream of a tentacle session: present from the moment the
   * protocol's handler is added (in its {@code initChannel}).
   *
   * @param stream a stream channel
   * @return its protocol, or empty if protocol-select has not chosen one
   */
  public static Optional<ProtocolStream> protocol(Channel stream) {
    return Optional.ofNullable(stream.attr(ProtocolSelectHandler.SELECTED).get());
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
