package io.secio.handshake;

import io.secio.Backend;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.gson.JsonObject;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.crypto.CryptoBackend;
import io.secio.crypto.CryptoBackends;
import io.secio.crypto.EphemeralKeyPair;
import io.secio.frame.CipherPair;
import io.secio.frame.FrameOpener;
import io.secio.frame.FrameSealer;
import io.secio.frame.cipher.DirectionKeys;
import io.secio.frame.cipher.FrameCiphers;
import io.secio.frame.cipher.KeyStretcher;
import io.secio.handshake.HandshakeEngine.State;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.protocol.SecioException.Reason;
import io.secio.protocol.SecioException;
import io.secio.testing.TestIdentities;
import io.secio.testing.Vectors;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;

/**
 * The handshake engine fed a peer's messages from the fuzzer (docs/PROTOCOL.md sections 4 to 9). Its contract:
 * whatever arrives, {@code receive} returns or throws a {@link SecioException} whose reason fits the
 * step, the engine is then FAILED and throws that same exception on every later call; no other
 * exception type, and each success moves exactly one step on. Engines use a fixed nonce and
 * ephemeral key, so that a saved input replays the same way.
 *
 * <p>In this package because fixed nonces and ephemeral keys ({@code createForKnownAnswers}) and the
 * message codec are package-private.
 */
class HandshakeEngineFuzzTest {
  static final int MAX_MESSAGE = 2048;
  static final int MAX_FIELD = 600;
  static final int MAX_PLAINTEXT = 64;
  static final int MAX_APPLICATION_FRAMES = 4;

  static final Map<State, Set<Reason>> REASONS = Map.of(
      State.AWAITING_PROPOSE,
      EnumSet.of(Reason.MALFORMED_MESSAGE, Reason.PROPOSAL_TOO_LONG, Reason.SELF_CONNECTION,
          Reason.NO_COMMON_ALGORITHMS),
      State.AWAITING_EXCHANGE,
      EnumSet.of(Reason.MALFORMED_MESSAGE, Reason.BAD_SIGNATURE, Reason.BAD_EPHEMERAL_KEY),
      State.AWAITING_NONCE_ECHO,
      EnumSet.of(Reason.FRAME_TOO_SHORT, Reason.AUTHENTICATION_FAILED, Reason.NONCE_MISMATCH));

  // ---------------------------------------------------------------------------------------------
  // (a) Every message from the fuzzer: Propose, Exchange, nonce echo, then application frames.

  /**
   * Side A of the libp2p transcript (shared/vectors), so that side B's messages from the vectors
   * carry a handshake to the end; the fuzzer starts from those.
   */
  @FuzzTest
  void anyPeerMessages(FuzzedDataProvider data) {
    State reached = anyPeerMessagesReach(data);
    synchronized (REACHED_ANY) {
      REACHED_ANY.add(reached);
    }
  }

  /** Runs (a); returns how far the handshake got. */
  static State anyPeerMessagesReach(FuzzedDataProvider data) {
    int messages = data.consumeInt(1, 6);
    HandshakeEngine engine = Transcript.engineA();
    engine.start();
    FrameOpener opener = null;
    for (int i = 0; i < messages; i++) {
      byte[] payload = i < messages - 1
          ? data.consumeBytes(data.consumeInt(0, MAX_MESSAGE))
          : data.consumeRemainingAsBytes();
      if (engine.isComplete()) {
        if (opener == null) {
          opener = engine.split().opener();
        }
        if (!openApplicationFrame(opener, payload)) {
          break;
        }
        continue;
      }
      if (!step(engine, payload)) {
        break;
      }
    }
    return engine.state();
  }

  /**
   * Feeds one payload; asserts the contract of a step. Returns whether the engine took it.
   */
  static boolean step(HandshakeEngine engine, byte[] payload) {
    State before = engine.state();
    List<byte[]> out;
    try {
      out = engine.receive(payload);
    } catch (SecioException e) {
      assertEquals(State.FAILED, engine.state(), "state after " + e);
      assertTrue(REASONS.get(before).contains(e.reason()), "reason " + e.reason() + " in " + before);
      SecioException again = assertThrows(SecioException.class, () -> engine.receive(payload));
      assertSame(e, again, "a failed engine throws its failure again");
      assertThrows(IllegalStateException.class, engine::session);
      return false;
    } catch (RuntimeException | Error e) {
      throw new AssertionError("receive() in " + before + " threw " + e, e);
    }
    switch (before) {
      case AWAITING_PROPOSE:
        assertEquals(State.AWAITING_EXCHANGE, engine.state());
        assertEquals(1, out.size(), "one Exchange");
        try {
          ProtobufMessages.decodeExchange(out.get(0));
        } catch (SecioException e) {
          throw new AssertionError("the engine sent an Exchange it cannot parse", e);
        }
        break;
      case AWAITING_EXCHANGE:
        assertEquals(State.AWAITING_NONCE_ECHO, engine.state());
        assertEquals(1, out.size(), "one nonce echo");
        break;
      case AWAITING_NONCE_ECHO:
        assertEquals(State.COMPLETE, engine.state());
        assertTrue(out.isEmpty(), "nothing to send after the echo");
        assertThrows(IllegalStateException.class, () -> engine.receive(payload));
        break;
      default:
        fail("receive() succeeded in " + before);
    }
    return true;
  }

  /** An application frame: it opens or fails as a frame does. Returns whether it opened. */
  static boolean openApplicationFrame(FrameOpener opener, byte[] body) {
    try {
      opener.open(body);
      return true;
    } catch (SecioException e) {
      assertTrue(e.reason() == Reason.FRAME_TOO_SHORT || e.reason() == Reason.AUTHENTICATION_FAILED,
          "frame failure reason " + e.reason());
      return false;
    }
  }

  /** Engine A of the transcript and B's messages. */
  static final class Transcript {
    static final JsonObject T = Vectors.transcript();

    static HandshakeEngine engineA() {
      JsonObject a = T.getAsJsonObject("A");
      SecioConfig config = SecioConfig.builder(identity("A"))
          .exchanges(List.of(ExchangeAlgorithm.P_256, ExchangeAlgorithm.P_384, ExchangeAlgorithm.P_521))
          .ciphers(List.of(CipherAlgorithm.AES_256_CTR, CipherAlgorithm.AES_128_CTR))
          .hashes(List.of(HashAlgorithm.SHA256, HashAlgorithm.SHA512))
          .backend(Backend.AUTO)
          .build();
      return HandshakeEngine.createForKnownAnswers(config, HandshakeEngine.backendOf(config),
          Vectors.hex(a, "nonce"), Vectors.hex(T.get("A_ephemeral_scalar")));
    }

    static IdentityKeyPair identity(String side) {
      JsonObject s = T.getAsJsonObject(side);
      return TestIdentities.ed25519FromSeed(Vectors.hex(s, "seed"), Vectors.hex(s, "pub"));
    }

    /** B's Propose, Exchange, nonce echo and first application frame, as A receives them. */
    static List<byte[]> messagesOfB() {
      JsonObject b = T.getAsJsonObject("B");
      return List.of(
          Vectors.hex(b, "propose"),
          Vectors.hex(b, "exchange"),
          Vectors.hex(T.getAsJsonArray("frames_sent_by_B").get(0)),
          Vectors.hex(T.getAsJsonArray("frames_sent_by_B").get(1)));
    }
  }

  // ---------------------------------------------------------------------------------------------
  // (b) A valid Propose from a scripted peer, then a fuzzed, bent or honest Exchange and echo.

  static final int EXCHANGE_RAW = 0;
  static final int EXCHANGE_SIGNED_EPUB = 1;
  static final int EXCHANGE_FUZZED_SIGNATURE = 2;
  static final int EXCHANGE_HONEST = 3;
  static final int ECHO_RAW = 0;
  static final int ECHO_SEALED = 1;
  static final int ECHO_HONEST = 2;

  /**
   * One of several negotiated outcomes (every cipher, every curve, three identity key types): the
   * peer's Propose is valid, so the fuzzer works on the Exchange (raw bytes; a correctly signed
   * fuzzed ephemeral key; an honest key with a fuzzed signature; or honest) and then on the nonce
   * echo (raw bytes; any plaintext sealed with the right keys; or honest), then application frames
   * both ways.
   */
  @FuzzTest
  void afterAValidPropose(FuzzedDataProvider data) throws Exception {
    List<Scenario> scenarios = Scenario.all();
    int scenario = data.consumeInt(0, scenarios.size() - 1);
    State reached = afterAValidProposeReach(scenarios.get(scenario), data);
    synchronized (COMPLETED_SCENARIOS) {
      ranAfterAValidPropose = true;
      if (reached == State.COMPLETE) {
        COMPLETED_SCENARIOS.add(scenario);
      }
    }
  }

  static State afterAValidProposeReach(Scenario s, FuzzedDataProvider data) throws Exception {
    HandshakeEngine engine = s.engine();
    engine.start();
    assertArrayEquals(s.engineExchange, engine.receive(s.peerPropose).get(0), "fixed engine");

    int exchangeMode = data.consumeInt(EXCHANGE_RAW, EXCHANGE_HONEST);
    byte[] exchange;
    byte[] epub = s.peerEpub;
    switch (exchangeMode) {
      case EXCHANGE_RAW:
        exchange = data.consumeBytes(data.consumeInt(0, MAX_MESSAGE));
        break;
      case EXCHANGE_SIGNED_EPUB:
        epub = data.consumeBytes(data.consumeInt(0, MAX_FIELD));
        exchange = s.peer.exchange(epub, UnaryOperator.identity());
        break;
      case EXCHANGE_FUZZED_SIGNATURE:
        byte[] signature = data.consumeBytes(data.consumeInt(0, MAX_FIELD));
        exchange = ProtobufMessages.encodeExchange(new Exchange(s.peerEpub, signature));
        break;
      default:
        exchange = s.honestExchange;
    }
    List<byte[]> out;
    try {
      out = engine.receive(exchange);
    } catch (SecioException e) {
      assertFailed(engine, e, State.AWAITING_EXCHANGE, exchange);
      switch (exchangeMode) {
        case EXCHANGE_SIGNED_EPUB:
          assertTrue(e.reason() == Reason.BAD_EPHEMERAL_KEY
              || (epub.length == 0 && e.reason() == Reason.MALFORMED_MESSAGE), "signed key: " + e);
          break;
        case EXCHANGE_FUZZED_SIGNATURE:
          assertTrue(e.reason() == Reason.BAD_SIGNATURE
              || (e.reason() == Reason.MALFORMED_MESSAGE), "fuzzed signature: " + e);
          break;
        case EXCHANGE_HONEST:
          throw new AssertionError("an honest Exchange failed", e);
        default:
      }
      return engine.state();
    } catch (RuntimeException | Error e) {
      throw new AssertionError("receive(Exchange) threw " + e, e);
    }
    assertEquals(State.AWAITING_NONCE_ECHO, engine.state());
    assertEquals(1, out.size(), "one nonce echo");
    if (exchangeMode == EXCHANGE_SIGNED_EPUB) {
      assertEquals(s.exchange.publicKeySizeInBytes(), epub.length, "accepted key length");
    }
    // Raw bytes may be an Exchange signed in an earlier run, with another key: decode what was taken.
    byte[] taken = ProtobufMessages.decodeExchange(exchange).epubkey();
    boolean scenarioKeys = Arrays.equals(taken, s.peerEpub);
    if (scenarioKeys) {
      // The engine echoes the peer's nonce (docs/PROTOCOL.md section 9).
      assertArrayEquals(Scenario.PEER_NONCE, s.peerOpener().open(out.get(0)), "the engine's echo");
    }

    int echoMode = data.consumeInt(ECHO_RAW, ECHO_HONEST);
    FrameSealer peerSealer = s.peerSealer();
    byte[] echo;
    boolean sealedNonce;
    if (echoMode == ECHO_RAW || !scenarioKeys) {
      echo = data.consumeBytes(data.consumeInt(0, MAX_MESSAGE));
      sealedNonce = scenarioKeys && Arrays.equals(echo, s.honestEcho);
      if (sealedNonce) {
        peerSealer.seal(s.engineNonce); // keep the peer's stream in step with what was sent
      }
    } else if (echoMode == ECHO_SEALED) {
      byte[] plaintext = data.consumeBytes(data.consumeInt(0, MAX_PLAINTEXT));
      echo = peerSealer.seal(plaintext);
      sealedNonce = Arrays.equals(plaintext, s.engineNonce);
    } else {
      echo = peerSealer.seal(s.engineNonce);
      assertArrayEquals(s.honestEcho, echo, "honest echo");
      sealedNonce = true;
    }
    try {
      assertTrue(engine.receive(echo).isEmpty(), "nothing to send after the echo");
    } catch (SecioException e) {
      assertFailed(engine, e, State.AWAITING_NONCE_ECHO, echo);
      if (sealedNonce) {
        throw new AssertionError("the right nonce, rightly sealed, failed", e);
      }
      if (echoMode == ECHO_SEALED && scenarioKeys) {
        assertEquals(Reason.NONCE_MISMATCH, e.reason(), "authentic frame with another nonce");
      }
      return engine.state();
    } catch (RuntimeException | Error e) {
      throw new AssertionError("receive(echo) threw " + e, e);
    }
    assertTrue(sealedNonce, "an echo that is not the nonce sealed with the right keys completed");
    assertEquals(State.COMPLETE, engine.state());

    SecioSession session = engine.session();
    CipherPair ciphers = engine.split();
    assertEquals(s.exchange, session.exchange());
    assertEquals(s.cipher, session.cipher());
    assertEquals(s.hash, session.hash());
    assertEquals(!s.peerPreferred, session.isLocalPreferred());
    FrameOpener peerOpener = s.peerOpener();
    peerOpener.open(out.get(0));
    for (int i = 0; i < MAX_APPLICATION_FRAMES && data.remainingBytes() > 0; i++) {
      byte[] plaintext = data.consumeBytes(data.consumeInt(0, MAX_PLAINTEXT));
      assertArrayEquals(plaintext,
          ciphers.opener().open(peerSealer.seal(plaintext)), "peer to engine");
      assertArrayEquals(plaintext,
          peerOpener.open(ciphers.sealer().seal(plaintext)), "engine to peer");
    }
    return engine.state();
  }

  private static void assertFailed(HandshakeEngine engine, SecioException e, State before, byte[] payload) {
    assertEquals(State.FAILED, engine.state(), "state after " + e);
    assertTrue(REASONS.get(before).contains(e.reason()), "reason " + e.reason() + " in " + before);
    assertSame(e, assertThrows(SecioException.class, () -> engine.receive(payload)));
  }

  /** A negotiated outcome, with everything the peer side needs precomputed once per JVM. */
  static final class Scenario {
    static final byte[] ENGINE_NONCE = Vectors.hex(Transcript.T.getAsJsonObject("A"), "nonce");
    /** A valid scalar on every curve (below each order) and a valid X25519 private key. */
    static final byte[] ENGINE_EPHEMERAL = fill(32, 0x11);
    static final byte[] PEER_NONCE = fill(16, 0x22);
    /**
     * secp256k1, whose signing (Bouncy Castle) is several times faster than SunEC's ECDSA (and
     * was than its Ed25519): the engine signs once per input, and this target is about the peer's
     * messages.
     */
    static final IdentityKeyPair LOCAL_IDENTITY = secp256k1(0x44);
    private static List<Scenario> all;

    final ExchangeAlgorithm exchange;
    final CipherAlgorithm cipher;
    final HashAlgorithm hash;
    final CryptoBackend backend = CryptoBackends.defaultBackend();
    final SecioConfig config;
    final ScriptedPeer peer;
    final byte[] engineNonce = ENGINE_NONCE.clone();
    final byte[] peerPropose;
    final byte[] engineExchange;
    final byte[] peerEpub;
    final byte[] honestExchange;
    final boolean peerPreferred;
    final DirectionKeys peerSends;
    final DirectionKeys peerReceives;
    final byte[] honestEcho;

    Scenario(ExchangeAlgorithm exchange, CipherAlgorithm cipher, HashAlgorithm hash,
        IdentityKeyPair peerIdentity) throws Exception {
      this.exchange = exchange;
      this.cipher = cipher;
      this.hash = hash;
      IdentityKeyPair local = LOCAL_IDENTITY;
      this.config = SecioConfig.builder(local).build();
      this.peer = new ScriptedPeer(peerIdentity)
          .proposing(exchange.wireName(), cipher.wireName(), hash.wireName())
          .withNonce(PEER_NONCE);
      this.peerPropose = peer.propose();
      HandshakeEngine scratch = engine();
      peer.receivePropose(scratch.start().get(0));
      this.engineExchange = scratch.receive(peerPropose).get(0);
      EphemeralKeyPair ephemeral = backend.generateEphemeral(exchange, new SecureRandom());
      this.peerEpub = ephemeral.publicKey();
      this.honestExchange = peer.exchange(peerEpub, UnaryOperator.identity());
      byte[] secret = ephemeral.agree(ProtobufMessages.decodeExchange(engineExchange).epubkey());
      KeyStretcher.StretchedKeys keys = KeyStretcher.stretch(cipher, hash, secret);
      this.peerPreferred = Negotiation.order(peerIdentity.publicKey().toProtobuf(), PEER_NONCE,
          local.publicKey().toProtobuf(), ENGINE_NONCE) > 0;
      this.peerSends = peerPreferred ? keys.k1() : keys.k2();
      this.peerReceives = peerPreferred ? keys.k2() : keys.k1();
      this.honestEcho = peerSealer().seal(ENGINE_NONCE);
    }

    HandshakeEngine engine() {
      return HandshakeEngine.createForKnownAnswers(config, backend, ENGINE_NONCE, ENGINE_EPHEMERAL);
    }

    FrameSealer peerSealer() throws Exception {
      return FrameCiphers.sealer(backend, cipher, hash, peerSends);
    }

    FrameOpener peerOpener() throws Exception {
      return FrameCiphers.opener(backend, cipher, hash, peerReceives);
    }

    static synchronized List<Scenario> all() throws Exception {
      if (all == null) {
        IdentityKeyPair ed25519 = Transcript.identity("B");
        IdentityKeyPair secp256k1 = secp256k1(0x33);
        IdentityKeyPair ecdsa = TestIdentities.of(KeyType.ECDSA);
        all = List.of(
            new Scenario(ExchangeAlgorithm.P_256, CipherAlgorithm.AES_128_GCM, HashAlgorithm.SHA256, ed25519),
            new Scenario(ExchangeAlgorithm.P_384, CipherAlgorithm.AES_256_GCM, HashAlgorithm.SHA512, secp256k1),
            new Scenario(ExchangeAlgorithm.X25519, CipherAlgorithm.CHACHA20_POLY1305, HashAlgorithm.SHA256, ecdsa),
            new Scenario(ExchangeAlgorithm.P_521, CipherAlgorithm.AES_256_CTR, HashAlgorithm.SHA512, ed25519),
            new Scenario(ExchangeAlgorithm.X25519, CipherAlgorithm.AES_128_CTR, HashAlgorithm.SHA256, secp256k1));
      }
      return all;
    }
  }

  /** The secp256k1 identity whose private scalar is 32 bytes of {@code value}. */
  private static IdentityKeyPair secp256k1(int value) {
    return IdentityKeyPair.fromProtobuf(concat(new byte[] {0x08, 0x02, 0x12, 0x20}, fill(32, value)));
  }

  private static byte[] fill(int length, int value) {
    byte[] b = new byte[length];
    Arrays.fill(b, (byte) value);
    return b;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  // ---------------------------------------------------------------------------------------------
  // The seeds must get somewhere: a layout change that turned them into noise fails here.

  private static final Set<State> REACHED_ANY = EnumSet.noneOf(State.class);
  private static final Set<Integer> COMPLETED_SCENARIOS = new TreeSet<>();
  private static boolean ranAfterAValidPropose;

  @AfterAll
  static void theSavedInputsReachEveryState() {
    if (System.getenv("JAZZER_FUZZ") != null) {
      return; // fuzzing: the inputs are the fuzzer's, not the saved ones
    }
    if (!REACHED_ANY.isEmpty()) {
      assertEquals(EnumSet.of(State.AWAITING_EXCHANGE, State.AWAITING_NONCE_ECHO, State.COMPLETE,
          State.FAILED), REACHED_ANY, "states reached by the anyPeerMessages inputs");
    }
    if (ranAfterAValidPropose) {
      assertEquals(Set.of(0, 1, 2, 3, 4), COMPLETED_SCENARIOS,
          "scenarios completed by the afterAValidPropose inputs");
    }
  }
}
