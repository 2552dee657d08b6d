package io.secio.libp2p;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerAdapter;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.identity.IdentityPublicKey;
import io.secio.netty.Secio;
import io.secio.netty.multistream.Multistream;
import java.util.Objects;

/**
 * A libp2p connection in one line ({@code docs/STREAMS.md} §10): multistream-select picks {@code
 * /secio/1.0.0}, secio runs, multistream-select inside it picks the muxer from {@link
 * Libp2pConfig#muxers()}, and the connection serves identify, ping and the configured protocols on
 * the peer's streams.
 *
 * <pre>{@code
 * // dialling a libp2p node
 * ch.pipeline().addLast(Libp2p.client(secioConfig, libp2pConfig, nodePeerId));
 * Libp2pConnection node = Libp2p.connection(ch);
 * node.ready().sync();
 * Duration rtt = node.ping().get();
 * IdentifyRecord record = node.identify().get();
 * // accepting libp2p nodes, in a ServerBootstrap's child ChannelInitializer
 * ch.pipeline().addLast(Libp2p.server(secioConfig, libp2pConfig));
 * }</pre>
 *
 * <p>The handler replaces itself with the stages and a {@link Libp2pConnection} for the channel. Its
 * muxer must be the last handler that writes to the connection; handlers added behind it see the
 * connection's events (the upgrade's completions, its failure) but write nothing. The handlers
 * returned here are {@link ChannelHandler.Sharable} and thread-safe.
 */
public final class Libp2p {
  /** The name of the secure channel's stage (multistream-select, then secio) in the pipeline. */
  public static final String SECURITY_NAME = "libp2p-security";
  /** The name of the muxer's stage (multistream-select, then the muxer) in the pipeline. */
  public static final String MUXER_NAME = "libp2p-muxer";
  /** The name of the handler behind the muxer that reports the upgrade to the connection. */
  public static final String CONNECTION_NAME = "libp2p-connection";

  private Libp2p() {}

  /**
   * The dialling side: secio's initiator expecting {@code expectedRemotePeer} (null: any), then the
   * muxer proposed in the config's order.
   */
  public static ChannelHandler client(SecioConfig secio, Libp2pConfig config, PeerId expectedRemotePeer) {
    Objects.requireNonNull(secio, "secio");
    return new Installer(config, secio.identity().publicKey(), true,
        () -> expectedRemotePeer == null
            ? Multistream.initiator(Multistream.SECIO, Secio.client(secio))
            : Multistream.secioInitiator(secio, expectedRemotePeer));
  }

  /** The accepting side: secio's responder, then any of the config's muxers. */
  public static ChannelHandler server(SecioConfig secio, Libp2pConfig config) {
    Objects.requireNonNull(secio, "secio");
    return new Installer(config, secio.identity().publicKey(), false, () -> Multistream.secioResponder(secio));
  }

  /**
   * Only the muxer's negotiation (this side proposes) and the protocols, over a channel that is
   * already secure or is plaintext on purpose (a test against a bare muxer); identify then sends no
   * key and {@link Libp2pConnection#identify()} fails.
   */
  public static ChannelHandler muxerInitiator(Libp2pConfig config) {
    return new Installer(config, null, true, null);
  }

  /** As {@link #muxerInitiator}, for the side that accepts the muxer. */
  public static ChannelHandler muxerResponder(Libp2pConfig config) {
    return new Installer(config, null, false, null);
  }

  /**
   * The libp2p connection of {@code channel}.
   *
   * @throws IllegalStateException if no handler of this class was added to it
   */
  public static Libp2pConnection connection(Channel channel) {
    Libp2pConnection connection = channel.attr(Libp2pConnection.KEY).get();
    if (connection == null) {
      throw new IllegalStateException("no libp2p handler on " + channel);
    }
    return connection;
  }

  @ChannelHandler.Sharable
  private static final class Installer extends ChannelHandlerAdapter {
    private final Libp2pConfig config;
    private final IdentityPublicKey localKey;
    private final boolean initiator;
    private final java.util.function.Supplier<ChannelHandler> security;

    Installer(Libp2pConfig config, IdentityPublicKey localKey, boolean initiator,
        java.util.function.Supplier<ChannelHandler> security) {
      this.config = Objects.requireNonNull(config, "config");
      this.localKey = localKey;
      this.initiator = initiator;
      this.security = security;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      Libp2pConnection connection = new Libp2pConnection(ctx.channel(), config, localKey, initiator);
      ctx.channel().attr(Libp2pConnection.KEY).set(connection);
      Multistream.Builder muxers = initiator ? Multistream.initiator() : Multistream.responder();
      for (Muxer muxer : config.muxers()) {
        muxers.protocol(muxer.protocolId(), () -> connection.muxerHandler(muxer));
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
      p.addAfter(MUXER_NAME, CONNECTION_NAME, new ConnectionEvents(connection));
      p.remove(this);
    }

    @Override
    public String toString() {
      return "Libp2p." + (security == null ? (initiator ? "muxerInitiator" : "muxerResponder")
          : (initiator ? "client" : "server")) + config.muxers();
    }
  }
}
