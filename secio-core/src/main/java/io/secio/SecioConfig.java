package io.secio;

import io.secio.crypto.CryptoBackends;
import io.secio.identity.IdentityKeyPair;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.protocol.SecioException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * Everything a node needs to run secio handshakes: its identity, what it proposes, the frame limits,
 * the handshake timeout, who may connect (an expected remote peer, a {@link PeerVerifier}), how many
 * inbound handshakes run at once, where the handshake's CPU work runs, and the crypto backend.
 * Immutable and thread-safe; one config serves any number of connections. The one piece of shared
 * state it carries is its {@link HandshakeLimiter}, itself thread-safe, which is what lets every
 * server handler built from this config keep one bound.
 *
 * <p>Longer than this project's usual size on purpose: it is every tunable in one place, each with
 * its check, its accessor and its builder method, documented where a user sets it.
 */
public final class SecioConfig {
  /**
   * The system property that sets the default {@link Backend} of every builder, by its {@link
   * Backend#id()}: {@code auto} (or unset), {@code conscrypt}, {@code jdk} or {@code bouncycastle}.
   * This class is the one place that reads it.
   */
  public static final String BACKEND_PROPERTY = "secio.backend";

  /** The default and largest usual frame length: 8 MiB, inclusive. */
  public static final int DEFAULT_MAX_FRAME_LENGTH_IN_BYTES = 8 * 1024 * 1024;

  /**
   * The default bound on one handshake message (Propose, Exchange, nonce echo): 64 KiB. Real ones are
   * under 3 KiB even with an RSA-8192 identity; the bound keeps hostile handshakes from pinning
   * {@link #DEFAULT_MAX_FRAME_LENGTH_IN_BYTES} each.
   */
  public static final int DEFAULT_MAX_HANDSHAKE_MESSAGE_LENGTH_IN_BYTES = 64 * 1024;

  /** The default handshake timeout. */
  public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

  /** The default bound on handshakes one node runs at once. */
  public static final int DEFAULT_MAX_CONCURRENT_HANDSHAKES = 512;

  /** Default largest plaintext per frame sent: large enough to amortise the MAC, small enough to stream. */
  public static final int DEFAULT_MAX_PLAINTEXT_PER_FRAME_IN_BYTES = 64 * 1024;

  private final IdentityKeyPair identity;
  private final List<ExchangeAlgorithm> exchanges;
  private final List<CipherAlgorithm> ciphers;
  private final List<HashAlgorithm> hashes;
  private final int maxFrameLength;
  private final int maxHandshakeMessageLength;
  private final Duration handshakeTimeout;
  private final int maxPlaintextPerFrame;
  private final HandshakeLimiter handshakeLimiter;
  private final PeerId expectedRemotePeer;
  private final PeerVerifier peerVerifier;
  private final Executor handshakeExecutor;
  private final SecioObserver observer;
  private final Backend backend;
  /** What {@link #backend} resolved to on this JVM, or what a test handed the builder. */
  private final SecureRandom random;
  /** {@code null}: any dialect, the listener answering each dialer in its own. */
  private final Dialect dialect;

  private SecioConfig(Builder b) {
    this.identity = Objects.requireNonNull(b.identity, "identity");
    this.exchanges = List.copyOf(b.exchanges != null ? b.exchanges : b.mode.exchanges());
    this.ciphers = List.copyOf(b.ciphers != null ? b.ciphers : b.mode.ciphers());
    this.hashes = List.copyOf(b.hashes != null ? b.hashes : b.mode.hashes());
    requireNonEmpty(exchanges, "exchanges");
    requireNonEmpty(ciphers, "ciphers");
    requireNonEmpty(hashes, "hashes");
    this.maxFrameLength = b.maxFrameLength;
    this.maxHandshakeMessageLength = Math.min(b.maxHandshakeMessageLength, b.maxFrameLength);
    this.handshakeTimeout = b.handshakeTimeout;
    this.maxPlaintextPerFrame = b.maxPlaintextPerFrame;
    this.handshakeLimiter = b.handshakeLimiter != null
        ? b.handshakeLimiter
        : HandshakeLimiter.of(b.maxConcurrentHandshakes, b.maxConcurrentHandshakesPerSource > 0
            ? Math.min(b.maxConcurrentHandshakesPerSource, b.maxConcurrentHandshakes)
            : HandshakeLimiter.defaultMaxPerSource(b.maxConcurrentHandshakes));
    this.expectedRemotePeer = b.expectedRemotePeer;
    this.peerVerifier = b.peerVerifier;
    this.handshakeExecutor = b.handshakeExecutor;
    this.observer = b.observer;
    this.backend = b.backend != null ? b.backend : defaultBackend();
    // Fails the build where the chosen backend does not load, rather than the first handshake.
    CryptoBackends.of(backend.id());
    this.random = b.random != null ? b.random : new SecureRandom();
    this.dialect = b.dialect;
    if (dialect != null) {
      dialect.requireSpeakable(identity.type(), exchanges, ciphers, hashes);
    }
  }

  /** The {@link Backend} that {@value #BACKEND_PROPERTY} names, {@link Backend#AUTO} if unset. */
  private static Backend defaultBackend() {
    String property = System.getProperty(BACKEND_PROPERTY);
    if (property == null || property.isBlank()) {
      return Backend.AUTO;
    }
    return Backend.fromId(property).orElseThrow(() -> new IllegalStateException(
        "-D" + BACKEND_PROPERTY + "=" + property
            + " is not a backend; use auto, conscrypt, jdk or bouncycastle"));
  }

  private static void requireNonEmpty(List<?> list, String what) {
    if (list.isEmpty() || list.size() != list.stream().distinct().count()) {
      throw new IllegalArgumentException(what + " must be non-empty and without repeats");
    }
  }

  /**
   * A builder for a node with this identity; every other setting starts at its default ({@link
   * SecioMode#BRIDGE}'s proposals, the libp2p dialect, the limits of the {@code DEFAULT_}
   * constants).
   */
  public static Builder builder(IdentityKeyPair identity) {
    return new Builder().identity(identity);
  }

  /** A builder holding this config's values. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.identity = identity;
    b.exchanges = exchanges;
    b.ciphers = ciphers;
    b.hashes = hashes;
    b.maxFrameLength = maxFrameLength;
    b.maxHandshakeMessageLength = maxHandshakeMessageLength;
    b.handshakeTimeout = handshakeTimeout;
    b.maxPlaintextPerFrame = maxPlaintextPerFrame;
    // Shared, not copied: a config derived from this one (say for one dial) counts against the same bound.
    b.handshakeLimiter = handshakeLimiter;
    b.maxConcurrentHandshakes = handshakeLimiter.maxConcurrentHandshakes();
    b.maxConcurrentHandshakesPerSource = handshakeLimiter.maxPerSource();
    b.expectedRemotePeer = expectedRemotePeer;
    b.peerVerifier = peerVerifier;
    b.handshakeExecutor = handshakeExecutor;
    b.observer = observer;
    b.backend = backend;
    b.random = random;
    b.dialect = dialect;
    return b;
  }

  /** This config, expecting the remote side to be {@code peer} (as a client dialling a known peer). */
  public SecioConfig withExpectedRemotePeer(PeerId peer) {
    return toBuilder().expectedRemotePeer(peer).build();
  }

  /** This node's identity key pair, which signs its handshakes. */
  public IdentityKeyPair identity() {
    return identity;
  }

  /**
   * The local peer id in the form of the config's dialect ({@link Dialect#peerId}): a tentacle id
   * under {@link Dialect#TENTACLE}, what a tentacle dialer expects; libp2p's form under {@link
   * Dialect#LIBP2P} and for a listener of {@link Builder#anyDialect() any dialect}, whose sessions
   * each carry the id of the dialect they spoke.
   */
  public PeerId localPeerId() {
    return (dialect != null ? dialect : Dialect.LIBP2P).peerId(identity.publicKey());
  }

  /** The exchanges proposed, most preferred first. */
  public List<ExchangeAlgorithm> exchanges() {
    return exchanges;
  }

  /** The ciphers proposed, most preferred first. */
  public List<CipherAlgorithm> ciphers() {
    return ciphers;
  }

  /** The hashes proposed, most preferred first. */
  public List<HashAlgorithm> hashes() {
    return hashes;
  }

  /** Largest frame payload accepted and emitted, in bytes. */
  public int maxFrameLength() {
    return maxFrameLength;
  }

  /**
   * Largest handshake message accepted, in bytes, inclusive: every frame until the peer's nonce echo is
   * verified. Never more than {@link #maxFrameLength()}.
   */
  public int maxHandshakeMessageLength() {
    return maxHandshakeMessageLength;
  }

  /**
   * How long a handshake may take from its start to its end before it fails with {@code TIMEOUT};
   * {@link #DEFAULT_HANDSHAKE_TIMEOUT} by default.
   */
  public Duration handshakeTimeout() {
    return handshakeTimeout;
  }

  /** Largest plaintext one frame carries when sending (also bounded by {@link #maxFrameLength()}). */
  public int maxPlaintextPerFrame() {
    return maxPlaintextPerFrame;
  }

  /** How many handshakes one listener runs at once before refusing new ones. */
  public int maxConcurrentHandshakes() {
    return handshakeLimiter.maxConcurrentHandshakes();
  }

  /** How many of those may come from one source (see {@link HandshakeLimiter}). */
  public int maxConcurrentHandshakesPerSource() {
    return handshakeLimiter.maxPerSource();
  }

  /**
   * The limiter every server handler built from this config takes its permits from: one per config
   * (and per config derived from it with {@link #toBuilder()}), unless the builder was given one.
   */
  public HandshakeLimiter handshakeLimiter() {
    return handshakeLimiter;
  }

  /**
   * The peer the remote side must be (its id checked in the session's dialect before any signature
   * is verified), or empty for any peer.
   */
  public Optional<PeerId> expectedRemotePeer() {
    return Optional.ofNullable(expectedRemotePeer);
  }

  /** Who may connect, asked before any signature or ECDH work; {@link PeerVerifier#ACCEPT_ALL} by default. */
  public PeerVerifier peerVerifier() {
    return peerVerifier;
  }

  /**
   * Where a handshake's signing and ECDH run; empty (the default) runs them inline, on the thread
   * that feeds the handshake (a channel's event loop).
   */
  public Optional<Executor> handshakeExecutor() {
    return Optional.ofNullable(handshakeExecutor);
  }

  /** Who is told of each handshake's outcome and each frame; {@link SecioObserver#NONE} by default. */
  public SecioObserver observer() {
    return observer;
  }

  /**
   * The crypto backend that serves this config's handshakes and frames, the identity signatures
   * included: the builder's, or the default that {@value #BACKEND_PROPERTY} names.
   */
  public Backend backend() {
    return backend;
  }

  /** The source of nonces and, where the backend takes one, of ephemeral keys. */
  public SecureRandom random() {
    return random;
  }

  /**
   * The handshake dialect every connection speaks; empty when a listener answers each dialer in the
   * dialect of its first message (a dialer always states one).
   */
  public Optional<Dialect> dialect() {
    return Optional.ofNullable(dialect);
  }

  /**
   * Whether a connection can speak {@code d} with this config: the forced dialect, or with any
   * dialect each one that can carry the identity and negotiate some of the proposed algorithms.
   */
  public boolean speaks(Dialect d) {
    return dialect != null ? dialect == d : d.canSpeak(identity.type(), exchanges, ciphers, hashes);
  }

  @Override
  public String toString() {
    return "SecioConfig{peer=" + localPeerId()
        + ", dialect=" + (dialect != null ? dialect : "any")
        + ", exchanges=" + exchanges
        + ", ciphers=" + ciphers
        + ", hashes=" + hashes
        + ", maxFrameLength=" + maxFrameLength
        + ", maxPlaintextPerFrame=" + maxPlaintextPerFrame
        + ", maxHandshakeMessageLength=" + maxHandshakeMessageLength
        + ", handshakeTimeout=" + handshakeTimeout
        + ", backend=" + backend.id()
        + "}";
  }

  /** Builds a {@link SecioConfig}. Not thread-safe. */
  public static final class Builder {
    private IdentityKeyPair identity;
    private SecioMode mode = SecioMode.BRIDGE;
    private List<ExchangeAlgorithm> exchanges;
    private List<CipherAlgorithm> ciphers;
    private List<HashAlgorithm> hashes;
    private int maxFrameLength = DEFAULT_MAX_FRAME_LENGTH_IN_BYTES;
    private int maxHandshakeMessageLength = DEFAULT_MAX_HANDSHAKE_MESSAGE_LENGTH_IN_BYTES;
    private Duration handshakeTimeout = DEFAULT_HANDSHAKE_TIMEOUT;
    private int maxPlaintextPerFrame = DEFAULT_MAX_PLAINTEXT_PER_FRAME_IN_BYTES;
    private int maxConcurrentHandshakes = DEFAULT_MAX_CONCURRENT_HANDSHAKES;
    /** 0: the limiter's default share. */
    private int maxConcurrentHandshakesPerSource;
    private HandshakeLimiter handshakeLimiter;
    private PeerId expectedRemotePeer;
    private PeerVerifier peerVerifier = PeerVerifier.ACCEPT_ALL;
    private Executor handshakeExecutor;
    private SecioObserver observer = SecioObserver.NONE;
    private Backend backend;
    private SecureRandom random;
    private Dialect dialect = Dialect.LIBP2P;

    private Builder() {}

    /** This node's identity key pair (required). */
    public Builder identity(IdentityKeyPair identity) {
      this.identity = Objects.requireNonNull(identity, "identity");
      return this;
    }

    /** Proposals of a mode; lists set explicitly take precedence. Default {@link SecioMode#BRIDGE}. */
    public Builder mode(SecioMode mode) {
      this.mode = Objects.requireNonNull(mode, "mode");
      this.exchanges = null;
      this.ciphers = null;
      this.hashes = null;
      return this;
    }

    /**
     * The exchanges to propose, most preferred first (non-empty, no repeats); replaces the mode's.
     */
    public Builder exchanges(List<ExchangeAlgorithm> exchanges) {
      this.exchanges = List.copyOf(exchanges);
      return this;
    }

    /**
     * The ciphers to propose, most preferred first (non-empty, no repeats); replaces the mode's.
     */
    public Builder ciphers(List<CipherAlgorithm> ciphers) {
      this.ciphers = List.copyOf(ciphers);
      return this;
    }

    /** The hashes to propose, most preferred first (non-empty, no repeats); replaces the mode's. */
    public Builder hashes(List<HashAlgorithm> hashes) {
      this.hashes = List.copyOf(hashes);
      return this;
    }

    /** Largest frame payload, inclusive; at least 1 KiB. Default 8 MiB. */
    public Builder maxFrameLength(int bytes) {
      if (bytes < 1024) {
        throw new IllegalArgumentException("maxFrameLength must be at least 1024: " + bytes);
      }
      this.maxFrameLength = bytes;
      return this;
    }

    /**
     * Largest handshake message, inclusive; at least 1 KiB. Default 64 KiB. A frame limit below it
     * lowers it to the frame limit.
     */
    public Builder maxHandshakeMessageLength(int bytes) {
      if (bytes < 1024) {
        throw new IllegalArgumentException("maxHandshakeMessageLength must be at least 1024: " + bytes);
      }
      this.maxHandshakeMessageLength = bytes;
      return this;
    }

    /**
     * How long a handshake may take, positive. Default {@link
     * SecioConfig#DEFAULT_HANDSHAKE_TIMEOUT} (10 s).
     */
    public Builder handshakeTimeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("handshakeTimeout must be positive: " + timeout);
      }
      this.handshakeTimeout = timeout;
      return this;
    }

    /**
     * Largest plaintext per frame sent, at least 1; frames also stay within {@link
     * #maxFrameLength(int)}. Default 64 KiB.
     */
    public Builder maxPlaintextPerFrame(int bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("maxPlaintextPerFrame must be positive: " + bytes);
      }
      this.maxPlaintextPerFrame = bytes;
      return this;
    }

    /**
     * Bound on inbound handshakes at once, kept by a new {@link HandshakeLimiter} that the built
     * config owns (replacing one set with {@link #handshakeLimiter}). Default 512.
     */
    public Builder maxConcurrentHandshakes(int count) {
      if (count < 1) {
        throw new IllegalArgumentException("maxConcurrentHandshakes must be positive: " + count);
      }
      this.maxConcurrentHandshakes = count;
      this.handshakeLimiter = null;
      return this;
    }

    /**
     * Bound on inbound handshakes at once from one source (an IP address, an IPv6 /64), kept by the
     * new {@link HandshakeLimiter} as {@link #maxConcurrentHandshakes(int)}; at most that bound.
     * Default {@link HandshakeLimiter#defaultMaxPerSource}: one eighth of it, 64 of the default 512.
     */
    public Builder maxConcurrentHandshakesPerSource(int count) {
      if (count < 1) {
        throw new IllegalArgumentException("maxConcurrentHandshakesPerSource must be positive: " + count);
      }
      this.maxConcurrentHandshakesPerSource = count;
      this.handshakeLimiter = null;
      return this;
    }

    /** Share {@code limiter}, e.g. between the configs of two listeners of one node. */
    public Builder handshakeLimiter(HandshakeLimiter limiter) {
      this.handshakeLimiter = Objects.requireNonNull(limiter, "limiter");
      this.maxConcurrentHandshakes = limiter.maxConcurrentHandshakes();
      this.maxConcurrentHandshakesPerSource = limiter.maxPerSource();
      return this;
    }

    /** Fail the handshake unless the remote key hashes to this id; {@code null} accepts any peer. */
    public Builder expectedRemotePeer(PeerId peer) {
      this.expectedRemotePeer = peer;
      return this;
    }

    /**
     * Ask {@code verifier} about every remote peer before any signature or ECDH work; a refusal fails
     * the handshake with {@link SecioException.Reason#PEER_REFUSED}. Default {@link
     * PeerVerifier#ACCEPT_ALL}.
     */
    public Builder peerVerifier(PeerVerifier verifier) {
      this.peerVerifier = Objects.requireNonNull(verifier, "verifier");
      return this;
    }

    /**
     * Run each handshake's signing and ECDH on {@code executor} instead of the thread that feeds the
     * handshake, as Netty's {@code SslHandler} takes a delegated-task executor: an RSA-4096 signature
     * then no longer stalls an event loop serving thousands of connections. {@code null} (the default)
     * runs them inline.
     */
    public Builder handshakeExecutor(Executor executor) {
      this.handshakeExecutor = executor;
      return this;
    }

    /**
     * Tell {@code observer} of every handshake's outcome and every frame sealed and opened (see
     * {@link SecioObserver} for when and on which threads). Default {@link SecioObserver#NONE}.
     */
    public Builder observer(SecioObserver observer) {
      this.observer = Objects.requireNonNull(observer, "observer");
      return this;
    }

    /**
     * The crypto backend for every primitive, the identity signatures included. Default: the one
     * the system property {@value SecioConfig#BACKEND_PROPERTY} names, else {@link Backend#AUTO}.
     * {@link #build()} fails with an {@link IllegalStateException} if it does not load on this JVM
     * (Conscrypt's natives are missing, say).
     */
    public Builder backend(Backend backend) {
      this.backend = Objects.requireNonNull(backend, "backend");
      return this;
    }

    /**
     * The source of nonces, and of ephemeral keys where the backend's key generator takes one
     * (Conscrypt's uses BoringSSL's own). Default: a new {@link SecureRandom}.
     */
    public Builder random(SecureRandom random) {
      this.random = Objects.requireNonNull(random, "random");
      return this;
    }

    /**
     * Speak only this dialect (default {@link Dialect#LIBP2P}). {@link Dialect#TENTACLE} needs a
     * secp256k1 identity and proposes only what tentacle can negotiate (see {@link Dialect}).
     */
    public Builder dialect(Dialect dialect) {
      this.dialect = Objects.requireNonNull(dialect, "dialect");
      return this;
    }

    /**
     * As a listener, answer each dialer in the dialect of its first message, which it reads before
     * sending its own (tentacle only with a secp256k1 identity). A dialer needs one {@link
     * #dialect(Dialect)}.
     */
    public Builder anyDialect() {
      this.dialect = null;
      return this;
    }

    /**
     * The config, checked: non-empty lists without repeats, and proposals the chosen dialect can
     * speak with this identity; otherwise an {@link IllegalArgumentException} says what is wrong.
     *
     * @throws IllegalStateException if the backend does not load here, or no backend was set and
     *     {@value SecioConfig#BACKEND_PROPERTY} names none
     */
    public SecioConfig build() {
      return new SecioConfig(this);
    }
  }
}
