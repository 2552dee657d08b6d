package io.secio.ckb;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerAdapter;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.Future;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.ckb.protocol.Peer;
import io.secio.ckb.protocol.TentacleStack;
import io.secio.multiaddr.Multiaddr;
import io.secio.tentacle.TentacleConfig;
import io.secio.tentacle.TentacleSession;
import java.net.InetAddress;
import java.util.Objects;

/**
 * A CKB peer in one line ({@code docs/CKB.md}, "Network protocols"), beside {@code Tentacle.client}
 * and {@code Tentacle.server}: a tentacle session (secio's tentacle dialect, yamux, protocol-select)
 * that speaks CKB's identify, ping, discovery, feeler, disconnect message, sync (its minimum) and time
 * with a node's rules, for one {@link CkbNetwork}.
 *
 * <pre>{@code
 * // dialling a node (in a Bootstrap's ChannelInitializer)
 * ch.pipeline().addLast(Ckb.client(secioConfig, ckbConfig, Multiaddr.parse("/ip4/…/tcp/8111/p2p/Qm…")));
 * CkbSession session = Ckb.sessionFuture(ch).sync().getNow();     // the peer identified
 * // accepting peers (in a ServerBootstrap's child ChannelInitializer)
 * ch.pipeline().addLast(Ckb.server(secioConfig, ckbConfig));
 * }</pre>
 *
 * <p>A connection from or to an IP in the config's {@link BanList} is closed at once. The returned
 * handlers are {@link ChannelHandler.Sharable} and thread-safe.
 */
public final class Ckb {
  private Ckb() {}

  /**
   * The dialer's handlers for {@code peer}: secio accepts only the peer id its {@code /p2p/} names
   * (if it names one), and the peer's observed address in this side's Identify is {@code peer}.
   *
   * @param secio the secio config; its dialect must be tentacle's
   * @param config the CKB config
   * @param peer the address dialed
   * @return a handler for a client channel's pipeline
   */
  public static ChannelHandler client(SecioConfig secio, CkbConfig config, Multiaddr peer) {
    Objects.requireNonNull(secio, "secio");
    return new Installer(secio, config, true, Objects.requireNonNull(peer, "peer"));
  }

  /**
   * The dialer's handlers accepting whichever node answers; the observed address sent is the socket's.
   *
   * @param secio the secio config; its dialect must be tentacle's
   * @param config the CKB config
   * @return a handler for a client channel's pipeline
   */
  public static ChannelHandler client(SecioConfig secio, CkbConfig config) {
    return new Installer(Objects.requireNonNull(secio, "secio"), config, true, null);
  }

  /**
   * The listener's handlers: every accepted connection gets a session with this config's rules.
   *
   * @param secio the secio config; its dialect must be tentacle's
   * @param config the CKB config; one per server
   * @return a handler for an accepted channel's pipeline
   */
  public static ChannelHandler server(SecioConfig secio, CkbConfig config) {
    return new Installer(Objects.requireNonNull(secio, "secio"), config, false, null);
  }

  /** tentacle's no-secio mode, for tests: nothing is secured; {@code dialed} may be null. */
  static ChannelHandler insecure(CkbConfig config, boolean dialer, Multiaddr dialed) {
    return new Installer(null, config, dialer, dialed);
  }

  /**
   * The session on {@code connection}: completes once the peer's Identify is accepted (on a session
   * this side dialed, once its flags are met too), or fails with secio's or tentacle's failure or a
   * {@link CkbException} saying why the session ended first.
   *
   * @param connection a channel one of this class's handlers was added to
   * @return the session's future
   * @throws IllegalStateException if none was
   */
  public static Future<CkbSession> sessionFuture(Channel connection) {
    Peer peer = Peer.of(connection);
    if (peer == null) {
      throw new IllegalStateException("no CKB handler on " + connection);
    }
    return peer.identifiedFuture();
  }

  @ChannelHandler.Sharable
  private static final class Installer extends ChannelHandlerAdapter {
    private final SecioConfig secio;
    private final CkbConfig config;
    private final boolean dialer;
    private final Multiaddr peer;
    private final TentacleConfig tentacle;

    Installer(SecioConfig secio, CkbConfig config, boolean dialer, Multiaddr peer) {
      SnappyModule.check();
      this.secio = secio;
      this.config = Objects.requireNonNull(config, "config");
      this.dialer = dialer;
      this.peer = peer;
      this.tentacle = TentacleStack.tentacleConfig(config);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      Channel ch = ctx.channel();
      Peer state = new Peer(config, dialer, ch, peer, CkbSession::new);
      BanGate gate = new BanGate(config.banList(), state);
      if (ch.isActive() && gate.refused()) {
        ctx.pipeline().remove(this);
        return;
      }
      PeerId expected = peer == null ? null : peer.peerId().orElse(null);
      ctx.pipeline().replace(this, "ckb", gate);
      ctx.pipeline().addAfter("ckb", null, TentacleStack.handler(secio, tentacle, dialer, expected));
      Future<TentacleSession> session = TentacleStack.session(ch);
      session.addListener(f -> state.started(session));
    }

    @Override
    public String toString() {
      return dialer ? "Ckb.client" : "Ckb.server";
    }
  }

  /** Closes a connection from or to a banned IP before secio starts. */
  private static final class BanGate extends ChannelInboundHandlerAdapter {
    private final BanList bans;
    private final Peer peer;

    BanGate(BanList bans, Peer peer) {
      this.bans = bans;
      this.peer = peer;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      if (!refused()) {
        ctx.fireChannelActive();
      }
    }

    /** Whether the peer's IP is banned: then the connection is closing. */
    boolean refused() {
      InetAddress ip = peer.remoteIp();
      BanList.Ban ban = ip == null ? null : bans.ban(ip).orElse(null);
      if (ban == null) {
        return false;
      }
      peer.disconnect(new CkbException(CkbException.Reason.BANNED, ip.getHostAddress() + " is banned: " + ban.reason()),
          "reject peer connection");
      return true;
    }
  }
}
