package io.secio.ckb;

import io.netty.channel.ChannelHandler;
import io.secio.multiaddr.Multiaddr;
import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a CKB peer on this side says and keeps ({@code docs/CKB.md}, "Network protocols"): its network,
 * the flags it announces and those it requires of a node it dials, its client version and listen
 * addresses, the ping timers, the ban list and address book its sessions share, the protocols it
 * serves beyond its own, and who hears its events.
 *
 * <pre>{@code
 * CkbConfig config = CkbConfig.builder(CkbNetwork.TESTNET)
 *     .listener((session, event) -> System.out.println(session + ": " + event))
 *     .build();
 * }</pre>
 *
 * <p>Immutable and thread-safe. Every session of one config shares its {@link #banList()} and {@link
 * #addressBook()}.
 */
public final class CkbConfig {
  /** CKB's ping interval ({@code resource/ckb.toml}). */
  public static final Duration DEFAULT_PING_INTERVAL = Duration.ofSeconds(120);
  /** CKB's ping timeout. */
  public static final Duration DEFAULT_PING_TIMEOUT = Duration.ofSeconds(1200);
  /** How many addresses a GetNodes asks for (a node's own count). */
  public static final int DEFAULT_GET_NODES_COUNT = 1000;
  /** The most listen addresses an Identify carries. */
  public static final int MAX_LISTEN_ADDRS = 10;

  private final CkbNetwork network;
  private final long flags;
  private final long requiredFlags;
  private final String clientVersion;
  private final List<Multiaddr> listenAddrs;
  private final boolean localAddresses;
  private final Duration pingInterval;
  private final Duration pingTimeout;
  private final int getNodesCount;
  private final Map<CkbProtocol, Optional<ChannelHandler>> extraProtocols;
  private final BanList banList;
  private final AddressBook addressBook;
  private final CkbListener listener;
  private final Clock clock;

  private CkbConfig(Builder b) {
    this.network = b.network;
    this.flags = b.flags;
    this.requiredFlags = b.requiredFlags;
    this.clientVersion = b.clientVersion;
    this.listenAddrs = b.listenAddrs;
    this.localAddresses = b.localAddresses;
    this.pingInterval = b.pingInterval;
    this.pingTimeout = b.pingTimeout;
    this.getNodesCount = b.getNodesCount;
    this.extraProtocols = Collections.unmodifiableMap(new EnumMap<>(b.extraProtocols));
    this.clock = b.clock;
    this.banList = b.banList != null ? b.banList : new BanList(b.clock);
    this.addressBook = b.addressBook != null ? b.addressBook : new AddressBook();
    this.listener = b.listener;
  }

  /** A builder for {@code network}, with CKB's defaults and this side's honest flags (DISCOVERY). */
  public static Builder builder(CkbNetwork network) {
    return new Builder(network);
  }

  /** The network: its identify name is every Identify's. */
  public CkbNetwork network() {
    return network;
  }

  /** The flags this side announces ({@link IdentifyFlags}); DISCOVERY by default: what it serves. */
  public long flags() {
    return flags;
  }

  /** The flags a node this side dials must have (and what its GetNodes asks for); DISCOVERY by default. */
  public long requiredFlags() {
    return requiredFlags;
  }

  /** The client version this side announces. */
  public String clientVersion() {
    return clientVersion;
  }

  /** The addresses this side listens on, announced in its Identify (at most 10). */
  public List<Multiaddr> listenAddrs() {
    return listenAddrs;
  }

  /**
   * Whether loopback and private addresses are announced and kept ({@code discovery_local_address}
   * of CKB's config); off by default, as a node keeps only globally reachable ones.
   */
  public boolean localAddresses() {
    return localAddresses;
  }

  /** How often this side pings. */
  public Duration pingInterval() {
    return pingInterval;
  }

  /** How long a Ping may go unanswered before the session ends. */
  public Duration pingTimeout() {
    return pingTimeout;
  }

  /** How many addresses this side's GetNodes asks for. */
  public int getNodesCount() {
    return getNodesCount;
  }

  /**
   * The protocols this side does not implement but registers (for the peers that require them open),
   * each with the handler of its messages, or empty when it stays silent.
   */
  public Map<CkbProtocol, Optional<ChannelHandler>> extraProtocols() {
    return extraProtocols;
  }

  /** The IPs refused here, shared by every session of this config. */
  public BanList banList() {
    return banList;
  }

  /** The addresses a GetNodes is answered from, shared by every session of this config. */
  public AddressBook addressBook() {
    return addressBook;
  }

  /** Who hears every session's events, if anyone. */
  public Optional<CkbListener> listener() {
    return Optional.ofNullable(listener);
  }

  /** The clock of Time messages and of the default ban list. */
  public Clock clock() {
    return clock;
  }

  @Override
  public String toString() {
    return "CkbConfig{" + network.identifyName() + ", flags=" + IdentifyFlags.describe(flags) + ", required="
        + IdentifyFlags.describe(requiredFlags) + ", '" + clientVersion + "', listen=" + listenAddrs + ", extra="
        + extraProtocols.keySet() + "}";
  }

  /** Builds a {@link CkbConfig}; not thread-safe. */
  public static final class Builder {
    private final CkbNetwork network;
    private long flags = IdentifyFlags.DISCOVERY;
    private long requiredFlags = IdentifyFlags.DISCOVERY;
    private String clientVersion = defaultClientVersion();
    private List<Multiaddr> listenAddrs = List.of();
    private boolean localAddresses;
    private Duration pingInterval = DEFAULT_PING_INTERVAL;
    private Duration pingTimeout = DEFAULT_PING_TIMEOUT;
    private int getNodesCount = DEFAULT_GET_NODES_COUNT;
    private final Map<CkbProtocol, Optional<ChannelHandler>> extraProtocols = new EnumMap<>(CkbProtocol.class);
    private BanList banList;
    private AddressBook addressBook;
    private CkbListener listener;
    private Clock clock = Clock.systemUTC();

    private Builder(CkbNetwork network) {
      this.network = Objects.requireNonNull(network, "network");
    }

    private static String defaultClientVersion() {
      String version = CkbConfig.class.getPackage().getImplementationVersion();
      return "secio-java " + (version == null ? "(development build)" : version);
    }

    /**
     * The flags to announce. A node that dials this side opens its protocols only if they include
     * SYNC | DISCOVERY | RELAY (or COMPATIBILITY); the light client wants 0x3e. Announce only what the
     * peers this side serves will get.
     *
     * @param flags nonzero ({@link IdentifyFlags})
     * @return this builder
     */
    public Builder flags(long flags) {
      if (flags == 0) {
        throw new IllegalArgumentException("a node bans a peer whose flags are 0");
      }
      this.flags = flags;
      return this;
    }

    /**
     * The flags a node this side dials must announce, and that its GetNodes asks for.
     *
     * @param flags the flags ({@link IdentifyFlags})
     * @return this builder
     */
    public Builder requiredFlags(long flags) {
      this.requiredFlags = flags;
      return this;
    }

    /**
     * The client version to announce.
     *
     * @param version UTF-8 text
     * @return this builder
     */
    public Builder clientVersion(String version) {
      this.clientVersion = Objects.requireNonNull(version, "version");
      return this;
    }

    /**
     * The addresses this side listens on: its Identify announces them (at most 10), and its GetNodes
     * gives the first one's TCP port.
     *
     * @param addrs at most 10 addresses
     * @return this builder
     */
    public Builder listenAddrs(List<Multiaddr> addrs) {
      List<Multiaddr> copy = List.copyOf(addrs);
      if (copy.size() > MAX_LISTEN_ADDRS) {
        throw new IllegalArgumentException("a node disconnects a peer announcing more than 10 addresses");
      }
      this.listenAddrs = copy;
      return this;
    }

    /**
     * Whether loopback and private addresses are announced and kept (for tests and private networks).
     *
     * @param local true to keep them
     * @return this builder
     */
    public Builder localAddresses(boolean local) {
      this.localAddresses = local;
      return this;
    }

    /**
     * The ping timers.
     *
     * @param interval how often to ping; positive
     * @param timeout how long a Ping may go unanswered; positive
     * @return this builder
     */
    public Builder ping(Duration interval, Duration timeout) {
      this.pingInterval = positive(interval, "interval");
      this.pingTimeout = positive(timeout, "timeout");
      return this;
    }

    /**
     * How many addresses a GetNodes asks for.
     *
     * @param count 1 to 1000 (a node answers at most 1000)
     * @return this builder
     */
    public Builder getNodesCount(int count) {
      if (count < 1 || count > DEFAULT_GET_NODES_COUNT) {
        throw new IllegalArgumentException("a GetNodes count is 1 to 1000: " + count);
      }
      this.getNodesCount = count;
      return this;
    }

    /**
     * Registers a protocol this side does not implement: a dialing peer that requires it open (the
     * light client requires LightClient and Filter) can open it, and this side opens it on the
     * sessions it dials. Its messages go to {@code handler} (a {@code @Sharable} handler added to its
     * stream, reading and writing one payload {@code ByteBuf} per message, the codec done), or are
     * read and dropped when it is null.
     *
     * @param protocol a protocol {@link CkbProtocol#isImplemented()} is false for
     * @param handler the handler of its messages, or null to stay silent
     * @return this builder
     */
    public Builder protocol(CkbProtocol protocol, ChannelHandler handler) {
      if (protocol.isImplemented()) {
        throw new IllegalArgumentException(protocol + " is this side's own");
      }
      if (handler != null && !handler.getClass().isAnnotationPresent(ChannelHandler.Sharable.class)) {
        throw new IllegalArgumentException(handler.getClass().getName() + " is not @Sharable");
      }
      extraProtocols.put(protocol, Optional.ofNullable(handler));
      return this;
    }

    /**
     * The ban list; by default each config has its own.
     *
     * @param list the list, shared with whatever else uses it
     * @return this builder
     */
    public Builder banList(BanList list) {
      this.banList = Objects.requireNonNull(list, "list");
      return this;
    }

    /**
     * The address book; by default each config has its own.
     *
     * @param book the book, shared with whatever else uses it
     * @return this builder
     */
    public Builder addressBook(AddressBook book) {
      this.addressBook = Objects.requireNonNull(book, "book");
      return this;
    }

    /**
     * Who hears every session's events.
     *
     * @param listener called on each session's event loop
     * @return this builder
     */
    public Builder listener(CkbListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * The clock of Time messages and of the default ban list.
     *
     * @param clock the clock; the system's by default
     * @return this builder
     */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** The config. */
    public CkbConfig build() {
      return new CkbConfig(this);
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
