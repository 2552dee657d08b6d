package io.secio.handshake;

import io.secio.CipherAlgorithm;
import io.secio.ExchangeAlgorithm;
import io.secio.HashAlgorithm;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.SecioException;
import io.secio.SecioException.Reason;
import io.secio.SecioSession;
import io.secio.crypto.CryptoBackend;
import io.secio.crypto.EphemeralKeyPair;
import io.secio.crypto.Primitive;
import io.secio.frame.DirectionKeys;
import io.secio.frame.FrameCiphers;
import io.secio.frame.FrameOpener;
import io.secio.frame.FrameSealer;
import io.secio.frame.KeyStretcher;
import io.secio.frame.KeyStretcher.StretchedKeys;
import io.secio.handshake.HandshakeMessages.Exchange;
import io.secio.handshake.HandshakeMessages.Propose;
import io.secio.identity.IdentityPublicKey;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The secio handshake as an I/O-free state machine (spec sections 3, 4, 5 and 7). The caller moves
 * bytes: it sends what {@link #start()} returns, then feeds every whole received frame payload (without
 * its 4-byte length prefix) to {@link #receive(byte[])} and sends what that returns, in order. Both
 * sides start at once; neither waits for the other's Propose before sending its own.
 *
 * <p>When {@link #isComplete()} turns true the {@link #session()} holds the negotiated outcome and a
 * frame sealer and opener for the local side. Frames that arrive after the peer's nonce echo are
 * application frames and go to {@code session().opener()}.
 *
 * <p>Any failure moves the engine to {@link State#FAILED}, wipes its secrets and throws a {@link
 * SecioException}; every later call throws too. The engine never blocks, never calls back, and is not
 * thread-safe.
 */
public final class HandshakeEngine {

  /** Where the handshake is. */
  public enum State {
    NEW,
    AWAITING_PROPOSE,
    AWAITING_EXCHANGE,
    AWAITING_NONCE_ECHO,
    COMPLETE,
    FAILED
  }

  private final SecioConfig config;
  private final CryptoBackend backend;
  private final byte[] nonceOut;
  private final byte[] fixedEphemeralPrivate;
  private final byte[] localPub;

  private State state = State.NEW;
  private SecioException failure;
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

  private HandshakeEngine(SecioConfig config, byte[] nonceOut, byte[] fixedEphemeralPrivate) {
    this.config = Objects.requireNonNull(config, "config");
    this.backend = config.backend();
    this.nonceOut = nonceOut;
    this.fixedEphemeralPrivate = fixedEphemeralPrivate;
    this.localPub = config.identity().publicKey().toProtobuf();
  }

  /** A new engine for one connection. */
  public static HandshakeEngine create(SecioConfig config) {
    byte[] nonce = new byte[HandshakeMessages.NONCE_SIZE_IN_BYTES];
    config.random().nextBytes(nonce);
    return new HandshakeEngine(config, nonce, null);
  }

  /** An engine with a fixed nonce and ephemeral private key, for known-answer tests only. */
  static HandshakeEngine createForKnownAnswers(
      SecioConfig config, byte[] nonceOut, byte[] ephemeralPrivate) {
    return new HandshakeEngine(config, nonceOut.clone(), ephemeralPrivate.clone());
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
    localPropose =
        new Propose(nonceOut, localPub, offeredExchanges(), offeredCiphers(), offeredHashes());
    proposeOut = HandshakeMessages.encodePropose(localPropose);
    state = State.AWAITING_PROPOSE;
    return List.of(proposeOut);
  }

  /**
   * Feeds one whole received frame payload; returns the frames to send now, in order.
   *
   * @throws SecioException whose reason says what went wrong; the engine is then failed
   * @throws IllegalStateException before {@link #start()} or after completion
   */
  public List<byte[]> receive(byte[] framePayload) throws SecioException {
    Objects.requireNonNull(framePayload, "framePayload");
    if (state == State.FAILED) {
      throw failure;
    }
    if (state == State.NEW || state == State.COMPLETE) {
      throw new IllegalStateException("receive() called in state " + state);
    }
    try {
      switch (state) {
        case AWAITING_PROPOSE:
          return List.of(onPropose(framePayload));
        case AWAITING_EXCHANGE:
          return List.of(onExchange(framePayload));
        default:
          onNonceEcho(framePayload);
          return List.of();
      }
    } catch (SecioException e) {
      throw fail(e);
    } catch (RuntimeException e) {
      // Only the peer's bytes can get here (a parser refusing them): report them as malformed.
      throw fail(new SecioException(Reason.MALFORMED_MESSAGE, e.getClass().getSimpleName(), e));
    }
  }

  public State state() {
    return state;
  }

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
      wipe();
    }
    return failure;
  }

  private byte[] onPropose(byte[] payload) throws SecioException {
    proposeIn = payload.clone();
    remotePropose = HandshakeMessages.decodePropose(proposeIn);
    remoteKey = IdentityPublicKey.fromProtobuf(remotePropose.pubkey());
    PeerId expected = config.expectedRemotePeer().orElse(null);
    if (expected != null && !expected.matches(remoteKey)) {
      throw new SecioException(
          Reason.PEER_ID_MISMATCH, "expected " + expected + ", got " + remoteKey.peerId());
    }
    checkPeerAccepted();
    int order = Negotiation.order(localPub, nonceOut, remotePropose.pubkey(), remotePropose.rand());
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
    byte[] signature = config.identity().sign(concat(proposeOut, proposeIn, epub));
    state = State.AWAITING_EXCHANGE;
    return HandshakeMessages.encodeExchange(new Exchange(epub, signature));
  }

  /** Asks the configured verifier, before any signature or ECDH work is spent on this peer. */
  private void checkPeerAccepted() throws SecioException {
    PeerId remote = remoteKey.peerId();
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

  private byte[] onExchange(byte[] payload) throws SecioException {
    Exchange exchange = HandshakeMessages.decodeExchange(payload);
    if (!remoteKey.verify(concat(proposeIn, proposeOut, exchange.epubkey()), exchange.signature())) {
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
    // Our echo of the peer's nonce is the first encrypted frame we send (spec section 7).
    return sealer.seal(remotePropose.rand());
  }

  private void onNonceEcho(byte[] payload) throws SecioException {
    byte[] echoed = opener.open(payload);
    if (!MessageDigest.isEqual(echoed, nonceOut)) {
      throw new SecioException(Reason.NONCE_MISMATCH);
    }
    session =
        new SecioSession(
            config.localPeerId(),
            remoteKey,
            selection.exchange(),
            selection.cipher(),
            selection.hash(),
            localPreferred,
            backend.nameFor(Primitive.of(selection.cipher())),
            sealer,
            opener);
    state = State.COMPLETE;
  }

  private String offeredExchanges() {
    return Negotiation.join(
        config.exchanges().stream()
            .filter(e -> backend.offers(Primitive.of(e)))
            .map(ExchangeAlgorithm::wireName)
            .toList(),
        "exchanges");
  }

  private String offeredCiphers() {
    return Negotiation.join(
        config.ciphers().stream()
            .filter(c -> backend.offers(Primitive.of(c)))
            .map(CipherAlgorithm::wireName)
            .toList(),
        "ciphers");
  }

  private String offeredHashes() {
    return Negotiation.join(
        config.hashes().stream()
            .filter(h -> backend.offers(Primitive.of(h)))
            .map(HashAlgorithm::wireName)
            .toList(),
        "hashes");
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
    return "HandshakeEngine{state=" + state + ", local=" + config.localPeerId() + "}";
  }
}
