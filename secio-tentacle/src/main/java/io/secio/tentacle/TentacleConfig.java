package io.secio.tentacle;

import io.secio.streams.yamux.YamuxConfig;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a tentacle session speaks and its limits ({@code docs/STREAMS.md} §8.2): the registered
 * protocols, the yamux config (tentacle's profile unless told), how long protocol-select may take
 * on a stream, how long a session may stay without an open protocol, and the registry of connected
 * remote keys that refuses a second session from the same key.
 *
 * <pre>{@code
 * TentacleConfig config = TentacleConfig.builder()
 *     .protocol(TentacleProtocol.of("/test/echo", List.of("1", "2"), echoInitializer))
 *     .build();
 * }</pre>
 *
 * <p>Immutable and thread-safe. Every session built from one config shares its {@link
 * #connectedPeers()}: use one config per server (or give servers their own registry).
 */
public final class TentacleConfig {
  /** tentacle's (CKB's) service timeout: protocol-select, and a session with no protocol open. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);
  /**
   * The longest protocol-select message read (a name and a list of versions); tentacle's codec
   * would take 8 MiB, which a name and its versions never need.
   */
  public static final int MAX_SELECT_MESSAGE_LENGTH_IN_BYTES = 64 * 1024;

  private final Map<String, TentacleProtocol> protocols;
  private final YamuxConfig yamux;
  private final Duration negotiationTimeout;
  private final Duration sessionTimeout;
  private final ConnectedPeers connectedPeers;

  private TentacleConfig(Builder b) {
    this.protocols = Collections.unmodifiableMap(new LinkedHashMap<>(b.protocols));
    this.yamux = b.yamux;
    this.negotiationTimeout = b.negotiationTimeout;
    this.sessionTimeout = b.sessionTimeout;
    this.connectedPeers = b.connectedPeers != null ? b.connectedPeers : new ConnectedPeers();
  }

  /** A builder with tentacle's defaults and no protocol. */
  public static Builder builder() {
    return new Builder();
  }

  /** The registered protocols, in the order they were added. */
  public Collection<TentacleProtocol> protocols() {
    return protocols.values();
  }

  /** The protocol of that name, if registered. */
  public Optional<TentacleProtocol> protocol(String name) {
    return Optional.ofNullable(protocols.get(name));
  }

  /** The yamux session's config: {@link YamuxConfig#tentacle()} unless set. */
  public YamuxConfig yamux() {
    return yamux;
  }

  /** How long protocol-select may take on a stream before the stream is reset ({@code SELECT_TIMEOUT}). */
  public Duration negotiationTimeout() {
    return negotiationTimeout;
  }

  /**
   * How long after its start a session may have no protocol open: when it runs out with none open,
   * the session ends with GoAway 0, as tentacle's does.
   */
  public Duration sessionTimeout() {
    return sessionTimeout;
  }

  /** The registry of remote keys with a session, shared by every session of this config. */
  public ConnectedPeers connectedPeers() {
    return connectedPeers;
  }

  @Override
  public String toString() {
    return "TentacleConfig{protocols=" + protocols.values() + ", negotiationTimeout=" + negotiationTimeout
        + ", sessionTimeout=" + sessionTimeout + ", yamux=" + yamux + "}";
  }

  /** Builds a {@link TentacleConfig}; not thread-safe. */
  public static final class Builder {
    private final Map<String, TentacleProtocol> protocols = new LinkedHashMap<>();
    private YamuxConfig yamux = YamuxConfig.tentacle();
    private Duration negotiationTimeout = DEFAULT_TIMEOUT;
    private Duration sessionTimeout = DEFAULT_TIMEOUT;
    private ConnectedPeers connectedPeers;

    private Builder() {}

    /**
     * Registers a protocol: streams of it may be opened, and the peer's are accepted.
     *
     * @param protocol the protocol; its name must not be registered yet
     * @return this builder
     */
    public Builder protocol(TentacleProtocol protocol) {
      Objects.requireNonNull(protocol, "protocol");
      if (protocols.putIfAbsent(protocol.name(), protocol) != null) {
        throw new IllegalArgumentException(protocol.name() + " is registered already");
      }
      return this;
    }

    /**
     * The yamux config.
     *
     * @param config the config; {@link YamuxConfig#tentacle()} by default
     * @return this builder
     */
    public Builder yamux(YamuxConfig config) {
      this.yamux = Objects.requireNonNull(config, "config");
      return this;
    }

    /**
     * How long protocol-select may take on a stream.
     *
     * @param timeout positive; 5 s by default
     * @return this builder
     */
    public Builder negotiationTimeout(Duration timeout) {
      this.negotiationTimeout = positive(timeout, "negotiationTimeout");
      return this;
    }

    /**
     * How long a session may have no protocol open after its start.
     *
     * @param timeout positive; 5 s by default
     * @return this builder
     */
    public Builder sessionTimeout(Duration timeout) {
      this.sessionTimeout = positive(timeout, "sessionTimeout");
      return this;
    }

    /**
     * The registry of connected remote keys; by default each built config has its own.
     *
     * @param registry the registry, shared with whatever else uses it
     * @return this builder
     */
    public Builder connectedPeers(ConnectedPeers registry) {
      this.connectedPeers = Objects.requireNonNull(registry, "registry");
      return this;
    }

    /** The config. */
    public TentacleConfig build() {
      return new TentacleConfig(this);
    }

    private static Duration positive(Duration d, String what) {
      Objects.requireNonNull(d, what);
      if (d.isZero() || d.isNegative()) {
        throw new IllegalArgumentException(what + " must be positive: " + d);
      }
      return d;
    }
  }
}
