package io.secio.handshake;

import io.secio.Dialect;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.crypto.BackendKeys;
import io.secio.crypto.CryptoBackend;
import io.secio.crypto.CryptoBackends;
import io.secio.crypto.EphemeralKeyPair;
import io.secio.crypto.Primitive;
import io.secio.frame.CipherPair;
import io.secio.frame.FrameOpener;
import io.secio.frame.FrameSealer;
import io.secio.frame.cipher.DirectionKeys;
import io.secio.frame.cipher.FrameCiphers;
import io.secio.frame.cipher.KeyStretcher.StretchedKeys;
import io.secio.frame.cipher.KeyStretcher;
import io.secio.identity.IdentityPublicKey;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.protocol.SecioException.Reason;
import io.secio.protocol.SecioException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The secio handshake as an I/O-free state machine (docs/PROTOCOL.md sections 4 to 9). The caller
 * moves bytes: it sends what {@link #start()} returns, then feeds every whole received frame payload
 * (without its 4-byte length prefix) to {@link #receive(byte[])} and sends what that returns, in
 * order. Both sides start at once; neither waits for the other's Propose before sending its own.
 *
 * <p>{@link #receive} is {@link #feed} followed by {@link Step#run()}: {@code feed} does the cheap part
 * of a step (parsing the peer's message, the checks that refuse a peer before any work is spent on
 * it), and the {@link Step} says whether the rest is costly (a signature or an ECDH, as {@code
 * SSLEngine} says {@code NEED_TASK}), so that a transport can run it on another thread.
 *
 * <p>When {@link #isComplete()} turns true, {@link #session()} is the negotiated outcome (a value) and
 * {@link #split()} hands the transport, once, the frame ciphers oriented for the local side. Frames
 * that arrive after the peer's nonce echo are application frames and go to that pair's opener.
 *
 * <p>Every frame it is fed may be at most {@link SecioConfig#maxHandshakeMessageLength()} bytes; a
 * transport should enforce that from the length header, before buffering. Only bytes from the peer
 * that do not parse are reported as {@link Reason#MALFORMED_MESSAGE}; a failure of the local side
 * (signing, a provider, a bug) is {@link Reason#LOCAL_FAILURE} or {@link Reason#UNAVAILABLE}.
 *
 * <p>The engine speaks one {@link Dialect}: the config's, or for a listener that accepts any, the one
 * {@link #dialectToAnswer} reads from the dialer's first message. The dialect decides the message
 * encoding, the identity keys, the order's key bytes, the peer-id form and which algorithms may be
 * proposed; the steps are the same.
 *
 * <p>Any failure moves the engine to {@link State#FAILED}, wipes its secrets and throws a {@link
 * SecioException}; every later call throws too. The engine never blocks, never calls back, and is not
 * thread-safe: a step may run on another thread than the one that fed it, if the caller hands it
 * over with a happens-before edge (an executor does) and touches the engine meanwhile no more.
 *
 * <p>Longer than this project's other classes on purpose: it is the one state machine of both
 * dialects, whose steps read best side by side.
 */
public final class HandshakeEngine {

  /** Where the handshake is. */
  public enum State {
    /** Made, {@link HandshakeEngine#start()} not yet called. */
    NEW,
    /** Our Propose sent; waiting for the peer's. */
    AWAITING_PROPOSE,
    /** Proposes compared and algorithms chosen, our Exchange sent; waiting for the peer's. */
    AWAITING_EXCHANGE,
    /**
     * Exchanges verified, keys derived, the peer's nonce sent back under them; waiting for the peer to
     * send ours back.
     */
    AWAITING_NONCE_ECHO,
    /** The peer sent our nonce back: {@link HandshakeEngine#session()} and {@link HandshakeEngine#split()} are ready. */
    COMPLETE,
    /** A step failed; secrets are wiped and every call throws. */
    FAILED
  }

  private final SecioConfig config;
  private final HandshakeDialect dialect;
  private final CryptoBackend backend;
  private final byte[] nonceOut;
  private final byte[] fixedEphemeralPrivate;
  private final IdentityPublicKey localKey;

  private State state = State.NEW;
  private SecioException failure;
  private Step pending;
  private Propose localPropose;
  private byte[] proposeOut;
  private byte[] proposeIn;
  private Propose remotePropose;
  private IdentityPublicKey remoteKey;
  private boolean localPreferred;
  private Negotiation.Selection selection;
  private EphemeralKeyPair ephemeral;
  private FrameSealer sealer;
  private FrameOpener opener;
  private SecioSession session;
  private boolean split;

  private HandshakeEngine(SecioConfig config, Dialect dialect, CryptoBackend backend, byte[] nonceOut,
      byte[] fixedEphemeralPrivate) {
    this.config = Objects.requireNonNull(config, "config");
    Objects.requireNonNull(dialect, "dialect");
    if (!config.speaks(dialect)) {
      throw new IllegalArgumentException("this config does not speak the " + dialect + " dialect");
    }
    this.dialect = HandshakeDialect.of(dialect);
    this.backend = Objects.requireNonNull(backend, "backend");
    this.nonceOut = nonceOut;
    this.fixedEphemeralPrivate = fixedEphemeralPrivate;
    this.localKey = config.identity().publicKey();
  }

  /**
   * A new engine for one connection, in the config's dialect.
   *
   * @throws IllegalStateException if the config accepts any dialect: a dialer must state one
   */
  public static HandshakeEngine create(SecioConfig config) {
    return create(config, statedDialect(config));
  }

  /**
   * A new engine for one connection in {@code dialect}, as a listener answers a dialer.
   *
   * @throws IllegalArgumentException if the config does not speak that dialect
   */
  public static HandshakeEngine create(SecioConfig config, Dialect dialect) {
    return create(config, dialect, backendOf(config));
  }

  /**
   * An engine on {@code backend} rather than the config's choice, in the config's dialect: for tests
   * that watch or break the backend (a spy, a failing one) without making that a config setting users
   * could reach.
   */
  static HandshakeEngine create(SecioConfig config, CryptoBackend backend) {
    return create(config, statedDialect(config), backend);
  }

  /** As {@link #create(SecioConfig, CryptoBackend)}, in {@code dialect}. */
  static HandshakeEngine create(SecioConfig config, Dialect dialect, CryptoBackend backend) {
    byte[] nonce = new byte[Propose.NONCE_SIZE_IN_BYTES];
    config.random().nextBytes(nonce);
    return new HandshakeEngine(config, dialect, backend, nonce, null);
  }

  /** An engine with a fixed nonce and ephemeral private key, for known-answer tests only. */
  static HandshakeEngine createForKnownAnswers(
      SecioConfig config, CryptoBackend backend, byte[] nonceOut, byte[] ephemeralPrivate) {
    return new HandshakeEngine(
        config, statedDialect(config), backend, nonceOut.clone(), ephemeralPrivate.clone());
  }

  /** The backend of the config's {@link SecioConfig#backend()} choice; its build proved it loads. */
  static CryptoBackend backendOf(SecioConfig config) {
    return CryptoBackends.of(config.backend().id());
  }

  private static Dialect statedDialect(SecioConfig config) {
    return config.dialect().orElseThrow(() -> new IllegalStateException(
        "a dialer states its dialect: this config accepts any (SecioConfig.Builder.dialect)"));
  }

  /**
   * The dialect in which a listener answers a dialer whose first message (its Propose, without the
   * length prefix) is {@code firstMessage}: the config's if it states one; otherwise tentacle's when
   * the message begins as a molecule table exactly its length (docs/PROTOCOL.md section 14) and the
   * identity is secp256k1, libp2p's else. Does not move the buffer's position.
   */
  public static Dialect dialectToAnswer(SecioConfig config, ByteBuffer firstMessage) {
    if (config.dialect().isPresent()) {
      return config.dialect().get();
    }
    Dialect read = HandshakeDialect.of(firstMessage);
    return config.speaks(read) ? read : Dialect.LIBP2P;
  }

  /**
   * Returns the frames to send first: our Propose. Call once.
   *
   * @throws IllegalStateException if called twice, or if the backend offers none of the proposed
   *     algorithms of a kind
   */
  public List<byte[]> start() {
    if (state != State.NEW) {
      throw new IllegalStateException("start() called in state " + state);
    }
    Dialect d = dialect();
    localPropose = new Propose(nonceOut, dialect.proposedKey(localKey),
        Negotiation.offered(config.exchanges(), d.exchanges(), e -> backend.offers(Primitive.of(e)),
            ExchangeAlgorithm::wireName, "exchanges"),
        Negotiation.offered(config.ciphers(), d.ciphers(), c -> backend.offers(Primitive.of(c)),
            CipherAlgorithm::wireName, "ciphers"),
        Negotiation.offered(config.hashes(), d.hashes(), h -> backend.offers(Primitive.of(h)),
            HashAlgorithm::wireName, "hashes"));
    proposeOut = dialect.encodePropose(localPropose);
    state = State.AWAITING_PROPOSE;
    return List.of(proposeOut);
  }

  /**
   * Feeds one whole received frame payload; returns the frames to send now, in order. The same as
   * {@code feed(framePayload).run()}.
   *
   * @throws SecioException whose reason says what went wrong; the engine is then failed
   * @throws IllegalStateException before {@link #start()}, after completion, or while a step is pending
   */
  public List<byte[]> receive(byte[] framePayload) throws SecioException {
    return feed(framePayload).run();
  }

  /**
   * Feeds one whole received frame payload and does the cheap part of the step it starts: parsing
   * and the checks that refuse a peer (its key, the expected peer, the {@link
   * io.secio.PeerVerifier}, selection). The returned step does the rest; nothing more may be fed
   * until it has run.
   *
   * @throws SecioException whose reason says what went wrong; the engine is then failed
   * @throws IllegalStateException before {@link #start()}, after completion, or while a step is pending
   */
  public Step feed(byte[] framePayload) throws SecioException {
    Objects.requireNonNull(framePayload, "framePayload");
    if (state == State.FAILED) {
      throw failure;
    }
    if (state == State.NEW || state == State.COMPLETE || pending != null) {
      throw new IllegalStateException(
          "feed() called in state " + state + (pending != null ? " with a step pending" : ""));
    }
    if (framePayload.length > config.maxHandshakeMessageLength()) {
      // A framing layer rejects it from the header already; this guards callers that frame alone.
      throw fail(new SecioException(Reason.HANDSHAKE_MESSAGE_TOO_LONG,
          framePayload.length + " bytes, limit " + config.maxHandshakeMessageLength()));
    }
    return guarded(() -> {
      switch (state) {
        case AWAITING_PROPOSE:
          acceptPropose(framePayload);
          return new Step(true, () -> List.of(answerPropose()));
        case AWAITING_EXCHANGE:
          Exchange exchange = parse(dialect::decodeExchange, framePayload);
          return new Step(true, () -> List.of(answerExchange(exchange)));
        default:
          acceptNonceEcho(framePayload);
          return new Step(false, List::of);
      }
    });
  }

  /**
   * The rest of one handshake step, started by {@link #feed}: run it exactly once, on any one
   * thread (see the class comment), and send what it returns.
   */
  public final class Step {
    private final boolean costly;
    private final Work<List<byte[]>> work;
    private boolean ran;

    private Step(boolean costly, Work<List<byte[]>> work) {
      this.costly = costly;
      this.work = work;
      pending = this;
    }

    /** Whether running it costs a signature or an ECDH, so that a transport may run it elsewhere. */
    public boolean isCostly() {
      return costly;
    }

    /**
     * Does the rest of the step and returns the frames to send now, in order.
     *
     * @throws SecioException whose reason says what went wrong; the engine is then failed
     * @throws IllegalStateException on a second call
     */
    public List<byte[]> run() throws SecioException {
      if (ran) {
        throw new IllegalStateException("a step runs once");
      }
      ran = true;
      pending = null;
      if (state == State.FAILED) {
        throw failure;
      }
      return guarded(work);
    }
  }

  /** The dialect this engine speaks. */
  public Dialect dialect() {
    return dialect.dialect();
  }

  /** Where the handshake is. */
  public State state() {
    return state;
  }

  /** Whether the peer's nonce echo has been verified: {@link #session()} and {@link #split()} are ready. */
  public boolean isComplete() {
    return state == State.COMPLETE;
  }

  /** The local nonce sent in our Propose. */
  public byte[] localNonce() {
    return nonceOut.clone();
  }

  /**
   * The session; only once complete.
   *
   * @throws IllegalStateException before that
   */
  public SecioSession session() {
    if (state != State.COMPLETE) {
      throw new IllegalStateException("handshake not complete: " + state);
    }
    return session;
  }

  /**
   * The frame ciphers of the established connection, oriented for the local side: the caller owns
   * them from now on and destroys them when the connection ends. Once only; the engine keeps no
   * reference to them.
   *
   * @throws IllegalStateException before completion, or on a second call
   */
  public CipherPair split() {
    if (state != State.COMPLETE) {
      throw new IllegalStateException("handshake not complete: " + state);
    }
    if (split) {
      throw new IllegalStateException("the cipher pair was handed out already");
    }
    split = true;
    CipherPair pair = new CipherPair(sealer, opener);
    sealer = null;
    opener = null;
    return pair;
  }

  /**
   * Fails the handshake from outside (timeout, close) or inside: wipes secrets and moves to {@link
   * State#FAILED}. Returns the exception to report: {@code cause}, or the earlier failure if there was
   * one. A complete handshake is left as it is.
   */
  public SecioException fail(SecioException cause) {
    if (state == State.COMPLETE) {
      return cause;
    }
    if (state != State.FAILED) {
      state = State.FAILED;
      failure = cause;
      pending = null;
      wipe();
    }
    return failure;
  }

  /** Runs one part of a step: any failure fails the engine, reported as the step's. */
  private <T> T guarded(Work<T> work) throws SecioException {
    try {
      return work.run();
    } catch (SecioException e) {
      throw fail(e);
    } catch (RuntimeException e) {
      // Parsers report the peer's bad bytes themselves (see parse()); anything else is ours.
      throw fail(new SecioException(Reason.LOCAL_FAILURE, e.getClass().getSimpleName(), e));
    }
  }

  private interface Work<T> {
    T run() throws SecioException;
  }

  /** The cheap half of the answer to a Propose: everything that may refuse the peer. */
  private void acceptPropose(byte[] payload) throws SecioException {
    proposeIn = payload.clone();
    remotePropose = parse(dialect::decodePropose, proposeIn);
    remoteKey = parse(dialect::remoteKey, remotePropose.pubkey());
    if (remoteKey.equals(localKey)) {
      // Our own key on the other end is a loop back to ourselves, whatever the nonces say.
      throw new SecioException(Reason.SELF_CONNECTION, "the peer presents our own key");
    }
    PeerId expected = config.expectedRemotePeer().orElse(null);
    PeerId remoteId = dialect().peerId(remoteKey);
    if (expected != null && !expected.equals(remoteId)) {
      throw new SecioException(Reason.PEER_ID_MISMATCH, "expected " + expected + ", got " + remoteId);
    }
    checkPeerAccepted(remoteId);
    int order = Negotiation.order(dialect.orderKey(localKey), nonceOut,
        dialect.orderKey(remoteKey), remotePropose.rand());
    if (order == 0) {
      throw new SecioException(Reason.SELF_CONNECTION);
    }
    localPreferred = order > 0;
    selection =
        Negotiation.select(
            localPreferred,
            localPropose.exchanges(),
            localPropose.ciphers(),
            localPropose.hashes(),
            remotePropose.exchanges(),
            remotePropose.ciphers(),
            remotePropose.hashes());
  }

  /** Asks the configured verifier, before any signature or ECDH work is spent on this peer. */
  private void checkPeerAccepted(PeerId remote) throws SecioException {
    boolean accepted;
    try {
      accepted = config.peerVerifier().accept(remote, remoteKey);
    } catch (RuntimeException e) {
      // A verifier that cannot decide refuses: failing closed is the only safe reading.
      throw new SecioException(Reason.PEER_REFUSED, remote.toString(), e);
    }
    if (!accepted) {
      throw new SecioException(Reason.PEER_REFUSED, remote.toString());
    }
  }

  /** The costly half: our ephemeral key and the signature of our Exchange. */
  private byte[] answerPropose() throws SecioException {
    try {
      ephemeral =
          fixedEphemeralPrivate != null
              ? backend.ephemeralFromPrivate(selection.exchange(), fixedEphemeralPrivate)
              : backend.generateEphemeral(selection.exchange(), config.random());
    } catch (SecioException e) {
      throw e;
    } catch (GeneralSecurityException e) {
      throw new SecioException(Reason.UNAVAILABLE, "ephemeral key generation failed", e);
    }
    byte[] epub = ephemeral.publicKey();
    byte[] signature = sign(concat(proposeOut, proposeIn, epub));
    state = State.AWAITING_EXCHANGE;
    return dialect.encodeExchange(new Exchange(epub, signature));
  }

  /**
   * Our identity's signature, made on the config's backend like every other primitive; an identity
   * of the user's own (not from {@link io.secio.identity.IdentityKeyPair}'s factories) signs by
   * itself.
   */
  private byte[] sign(byte[] corpus) throws SecioException {
    if (!(config.identity() instanceof BackendKeys.Private)) {
      return config.identity().sign(corpus);
    }
    try {
      return ((BackendKeys.Private) config.identity()).sign(backend, corpus);
    } catch (SecioException e) {
      throw e;
    } catch (GeneralSecurityException e) {
      throw new SecioException(Reason.LOCAL_FAILURE, "signing failed", e);
    }
  }

  /** The peer's signature, checked on the config's backend. */
  private boolean verify(byte[] corpus, byte[] signature) throws SecioException {
    return remoteKey instanceof BackendKeys.Public
        ? ((BackendKeys.Public) remoteKey).verify(backend, corpus, signature)
        : remoteKey.verify(corpus, signature);
  }

  /** The peer's signature, the shared secret, the frame keys, and our echo of the peer's nonce. */
  private byte[] answerExchange(Exchange exchange) throws SecioException {
    if (!verify(concat(proposeIn, proposeOut, exchange.epubkey()), exchange.signature())) {
      throw new SecioException(Reason.BAD_SIGNATURE);
    }
    byte[] secret = ephemeral.agree(exchange.epubkey());
    ephemeral.destroy();
    StretchedKeys keys =
        KeyStretcher.stretch(selection.cipher(), selection.hash(), secret);
    Arrays.fill(secret, (byte) 0);
    try {
      DirectionKeys sendKeys = localPreferred ? keys.k1() : keys.k2();
      DirectionKeys receiveKeys = localPreferred ? keys.k2() : keys.k1();
      sealer = FrameCiphers.sealer(backend, selection.cipher(), selection.hash(), sendKeys);
      opener = FrameCiphers.opener(backend, selection.cipher(), selection.hash(), receiveKeys);
    } catch (SecioException e) {
      throw e;
    } catch (GeneralSecurityException e) {
      throw new SecioException(Reason.UNAVAILABLE, "frame cipher setup failed", e);
    } finally {
      keys.destroy();
    }
    state = State.AWAITING_NONCE_ECHO;
    // Our echo of the peer's nonce is the first encrypted frame we send (docs/PROTOCOL.md section 9).
    return sealer.seal(remotePropose.rand());
  }

  private void acceptNonceEcho(byte[] payload) throws SecioException {
    byte[] echoed = opener.open(payload);
    if (!MessageDigest.isEqual(echoed, nonceOut)) {
      throw new SecioException(Reason.NONCE_MISMATCH);
    }
    session =
        new SecioSession(
            dialect(),
            dialect().peerId(localKey),
            remoteKey,
            selection.exchange(),
            selection.cipher(),
            selection.hash(),
            localPreferred,
            backend.nameFor(Primitive.of(selection.cipher())));
    state = State.COMPLETE;
  }

  /** Parses bytes from the peer: the one place where a runtime failure is the peer's fault. */
  private static <T> T parse(Parser<T> parser, byte[] bytes) throws SecioException {
    try {
      return parser.parse(bytes);
    } catch (RuntimeException e) {
      throw new SecioException(Reason.MALFORMED_MESSAGE, e.getClass().getSimpleName(), e);
    }
  }

  private interface Parser<T> {
    T parse(byte[] bytes) throws SecioException;
  }

  private void wipe() {
    if (ephemeral != null) {
      ephemeral.destroy();
    }
    if (sealer != null) {
      sealer.destroy();
    }
    if (opener != null) {
      opener.destroy();
    }
  }

  private static byte[] concat(byte[]... parts) {
    int length = 0;
    for (byte[] p : parts) {
      length += p.length;
    }
    byte[] out = new byte[length];
    int offset = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, offset, p.length);
      offset += p.length;
    }
    return out;
  }

  @Override
  public String toString() {
    return "HandshakeEngine{dialect=" + dialect() + ", state=" + state
        + ", local=" + dialect().peerId(localKey) + "}";
  }
}
