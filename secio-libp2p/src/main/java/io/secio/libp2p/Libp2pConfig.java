package io.secio.libp2p;

import io.netty.channel.ChannelHandler;
import io.secio.multiaddr.Multiaddr;
import io.secio.netty.multistream.Multistream;
import io.secio.netty.negotiation.NegotiatedStreams;
import io.secio.streams.mplex.MplexConfig;
import io.secio.streams.yamux.YamuxConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a libp2p connection runs above its secure channel ({@code docs/STREAMS.md} §10): the muxers in
 * order of preference (a dialer proposes them in that order, a listener accepts any of them), their
 * configs, the protocols served on streams the peer opens (each a sharable handler, added to each
 * such stream once multistream-select agreed on it), and what identify says of this side.
 *
 * <pre>{@code
 * Libp2pConfig config = Libp2pConfig.builder()
 *     .muxers(Muxer.MPLEX, Muxer.YAMUX)
 *     .protocol("/echo/1.0.0", new ChannelInitializer<Channel>() {
 *       protected void initChannel(Channel stream) { stream.pipeline().addLast(new EchoHandler()); }
 *     })
 *     .agentVersion("my-node/1.0")
 *     .build();
 * }</pre>
 *
 * <p>identify ({@value #IDENTIFY}) and ping ({@value #PING}) are always served. A peer has
 * one inbound ping stream across every connection made with one config: its newer one resets the
 * older, so a node uses one config for all its connections. Thread-safe; immutable but for that
 * registry of ping streams; build with {@link #builder()}.
 */
public final class Libp2pConfig {
  /** The identify protocol's id. */
  public static final String IDENTIFY = "/ipfs/id/1.0.0";
  /** The ping protocol's id. */
  public static final String PING = "/ipfs/ping/1.0.0";
  /** The default bound on a peer's identify message: js-libp2p's 8 KiB. */
  public static final int DEFAULT_MAX_IDENTIFY_SIZE_IN_BYTES = 8 * 1024;
  /** The default agent version identify sends. */
  public static final String DEFAULT_AGENT_VERSION = "secio-java/0.1.0";
  /** The protocol version identify sends. */
  public static final String PROTOCOL_VERSION = "ipfs/0.1.0";

  private final List<Muxer> muxers;
  private final YamuxConfig yamux;
  private final MplexConfig mplex;
  private final Map<String, ChannelHandler> protocols;
  private final String agentVersion;
  private final List<Multiaddr> listenAddrs;
  private final int maxIdentifySize;
  private final Duration negotiationTimeout;
  private final InboundPings inboundPings = new InboundPings();

  private Libp2pConfig(Builder b) {
    if (b.muxers.isEmpty()) {
      throw new IllegalArgumentException("no muxer");
    }
    if (b.maxIdentifySize < 1) {
      throw new IllegalArgumentException("maxIdentifySize must be positive: " + b.maxIdentifySize);
    }
    muxers = List.copyOf(b.muxers);
    yamux = b.yamux;
    mplex = b.mplex;
    protocols = Collections.unmodifiableMap(new LinkedHashMap<>(b.protocols));
    agentVersion = b.agentVersion;
    listenAddrs = List.copyOf(b.listenAddrs);
    maxIdentifySize = b.maxIdentifySize;
    negotiationTimeout = b.negotiationTimeout;
  }

  /** A builder with the defaults: yamux then mplex, no protocol of the application's. */
  public static Builder builder() {
    return new Builder();
  }

  /** The muxers, most preferred first. */
  public List<Muxer> muxers() {
    return muxers;
  }

  /** yamux's config ({@link YamuxConfig#libp2p()} unless set). */
  public YamuxConfig yamux() {
    return yamux;
  }

  /** mplex's config ({@link MplexConfig#defaults()} unless set). */
  public MplexConfig mplex() {
    return mplex;
  }

  /** The application's protocols, by id, each with its handler, in the order they were added. */
  public Map<String, ChannelHandler> protocols() {
    return protocols;
  }

  /** Every protocol served on the peer's streams: identify, ping, then the application's. */
  public List<String> servedProtocols() {
    List<String> all = new ArrayList<>(List.of(IDENTIFY, PING));
    all.addAll(protocols.keySet());
    return all;
  }

  /** The agent version identify sends. */
  public String agentVersion() {
    return agentVersion;
  }

  /** The listen addresses identify sends. */
  public List<Multiaddr> listenAddrs() {
    return listenAddrs;
  }

  /** The largest identify message accepted from the peer. */
  public int maxIdentifySize() {
    return maxIdentifySize;
  }

  /** How long each multistream-select negotiation (the muxer's, each stream's) may take. */
  public Duration negotiationTimeout() {
    return negotiationTimeout;
  }

  /** The peers' inbound ping streams, one per peer across this config's connections. */
  InboundPings inboundPings() {
    return inboundPings;
  }

  /** Builds a {@link Libp2pConfig}. Not thread-safe. */
  public static final class Builder {
    private List<Muxer> muxers = List.of(Muxer.YAMUX, Muxer.MPLEX);
    private YamuxConfig yamux = YamuxConfig.libp2p();
    private MplexConfig mplex = MplexConfig.defaults();
    private final Map<String, ChannelHandler> protocols = new LinkedHashMap<>();
    private String agentVersion = DEFAULT_AGENT_VERSION;
    private List<Multiaddr> listenAddrs = List.of();
    private int maxIdentifySize = DEFAULT_MAX_IDENTIFY_SIZE_IN_BYTES;
    private Duration negotiationTimeout = Multistream.DEFAULT_TIMEOUT;

    private Builder() {}

    /** The muxers, most preferred first, each at most once. @return this */
    public Builder muxers(Muxer... muxers) {
      return muxers(List.of(muxers));
    }

    /** The muxers, most preferred first, each at most once. @return this */
    public Builder muxers(List<Muxer> muxers) {
      if (muxers.stream().distinct().count() != muxers.size()) {
        throw new IllegalArgumentException("a muxer twice: " + muxers);
      }
      this.muxers = List.copyOf(muxers);
      return this;
    }

    /** yamux's config. @return this */
    public Builder yamux(YamuxConfig yamux) {
      this.yamux = Objects.requireNonNull(yamux, "yamux");
      return this;
    }

    /** mplex's config. @return this */
    public Builder mplex(MplexConfig mplex) {
      this.mplex = Objects.requireNonNull(mplex, "mplex");
      return this;
    }

    /**
     * Serves {@code id} on the peer's streams: once multistream-select agreed on it, {@code handler}
     * is added to the stream, as a {@code TentacleProtocol}'s is.
     *
     * @param id the protocol id
     * @param handler sharable (Netty's {@code isSharable()}): {@code @Sharable}, or a {@code
     *     ChannelInitializer} that adds a new handler per stream
     * @return this
     * @throws IllegalArgumentException for identify, ping, an id added already, or a handler that is
     *     not sharable
     */
    public Builder protocol(String id, ChannelHandler handler) {
      NegotiatedStreams.requireSharable(Objects.requireNonNull(handler, "handler"));
      if (id.equals(IDENTIFY) || id.equals(PING)) {
        throw new IllegalArgumentException(id + " is served by the connection itself");
      }
      if (protocols.putIfAbsent(id, handler) != null) {
        throw new IllegalArgumentException("added twice: " + id);
      }
      return this;
    }

    /** The agent version identify sends. @return this */
    public Builder agentVersion(String agentVersion) {
      this.agentVersion = Objects.requireNonNull(agentVersion, "agentVersion");
      return this;
    }

    /** The listen addresses identify sends. @return this */
    public Builder listenAddrs(List<Multiaddr> listenAddrs) {
      this.listenAddrs = List.copyOf(listenAddrs);
      return this;
    }

    /** The largest identify message accepted from the peer. @return this */
    public Builder maxIdentifySize(int bytes) {
      this.maxIdentifySize = bytes;
      return this;
    }

    /** How long each multistream-select negotiation may take. @return this */
    public Builder negotiationTimeout(Duration timeout) {
      this.negotiationTimeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    /** The config. @throws IllegalArgumentException for no muxer or a bound below 1 */
    public Libp2pConfig build() {
      return new Libp2pConfig(this);
    }
  }
}
