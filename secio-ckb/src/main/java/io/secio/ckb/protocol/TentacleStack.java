package io.secio.ckb.protocol;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.util.concurrent.Future;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.ckb.CkbConfig;
import io.secio.ckb.CkbProtocol;
import io.secio.ckb.codec.CompressDecoder;
import io.secio.ckb.codec.CompressEncoder;
import io.secio.streams.StreamChannel;
import io.secio.tentacle.Tentacle;
import io.secio.tentacle.TentacleConfig;
import io.secio.tentacle.TentacleProtocol;
import io.secio.tentacle.TentacleSession;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The one place CKB meets {@code io.secio.tentacle}: the tentacle config of a {@link CkbConfig} (this
 * side's protocols and the registered extra ones, each with CKB's name, versions and message limit),
 * the handlers that start a session, and its future. A stream of each protocol gets the compress codec
 * if it has one and its {@link ProtocolHandler}. Stateless.
 */
public final class TentacleStack {
  private static final List<CkbProtocol> OWN = List.of(CkbProtocol.IDENTIFY, CkbProtocol.PING,
      CkbProtocol.DISCOVERY, CkbProtocol.FEELER, CkbProtocol.DISCONNECT_MESSAGE, CkbProtocol.SYNC, CkbProtocol.TIME);

  private TentacleStack() {}

  /** The tentacle config of {@code config}: one per server (it holds the registry of connected keys). */
  public static TentacleConfig tentacleConfig(CkbConfig config) {
    TentacleConfig.Builder b = TentacleConfig.builder();
    List<CkbProtocol> registered = new ArrayList<>(OWN);
    registered.addAll(config.extraProtocols().keySet());
    for (CkbProtocol p : registered) {
      b.protocol(TentacleProtocol.of(p.protocolName(), p.versions(), new StreamInitializer(p, config))
          .withMaxMessageLength(p.maxFrameLength()));
    }
    return b.build();
  }

  /**
   * The handler that runs secio (or nothing, in tentacle's no-secio mode), yamux and protocol-select.
   *
   * @param secio the secio config, or null for no secio (tests, trusted links)
   * @param tentacle the tentacle config
   * @param dialer whether this side dialed
   * @param expected the peer id the dialed address names, or null
   */
  public static ChannelHandler handler(SecioConfig secio, TentacleConfig tentacle, boolean dialer, PeerId expected) {
    if (secio == null) {
      return dialer ? Tentacle.insecureClient(tentacle) : Tentacle.insecureServer(tentacle);
    }
    if (!dialer) {
      return Tentacle.server(secio, tentacle);
    }
    return expected == null ? Tentacle.client(secio, tentacle) : Tentacle.client(secio, tentacle, expected);
  }

  /** The tentacle session's future on {@code connection}, once {@link #handler}'s is in its pipeline. */
  public static Future<TentacleSession> session(Channel connection) {
    return Tentacle.sessionFuture(connection);
  }

  /**
   * Opens {@code protocol}'s stream on {@code session} with the handlers {@link #tentacleConfig}
   * registered for it.
   *
   * @throws IllegalArgumentException if the session's config does not register it
   */
  public static Future<StreamChannel> open(TentacleSession session, CkbProtocol protocol) {
    TentacleProtocol registered = session.config().protocol(protocol.protocolName())
        .orElseThrow(() -> new IllegalArgumentException(protocol + " is not registered on " + session));
    return session.openStream(registered.name(), registered.handler());
  }

  @ChannelHandler.Sharable
  private static final class StreamInitializer extends ChannelInitializer<Channel> {
    private final CkbProtocol protocol;
    private final Optional<ChannelHandler> user;

    StreamInitializer(CkbProtocol protocol, CkbConfig config) {
      this.protocol = protocol;
      this.user = config.extraProtocols().getOrDefault(protocol, Optional.empty());
    }

    @Override
    protected void initChannel(Channel stream) {
      Peer peer = Peer.of(stream.parent());
      if (peer == null) {
        stream.close();
        return;
      }
      ChannelPipeline p = stream.pipeline();
      if (protocol.hasCompressCodec()) {
        p.addLast(new CompressDecoder(), protocol.compressesWrites() ? CompressEncoder.COMPRESSING : CompressEncoder.RAW);
      }
      p.addLast(handler(peer));
      user.ifPresent(p::addLast);
    }

    private ProtocolHandler handler(Peer peer) {
      return switch (protocol) {
        case IDENTIFY -> new IdentifyHandler(peer);
        case PING -> new PingHandler(peer);
        case DISCOVERY -> new DiscoveryHandler(peer);
        case FEELER -> new FeelerHandler(peer);
        case DISCONNECT_MESSAGE -> new DisconnectMessageHandler(peer);
        case SYNC -> new SyncHandler(peer);
        case TIME -> new TimeHandler(peer);
        case RELAY, ALERT, LIGHT_CLIENT, FILTER -> new SilentHandler(peer, protocol, user.isPresent());
      };
    }
  }
}
