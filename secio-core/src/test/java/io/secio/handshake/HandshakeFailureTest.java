package io.secio.handshake;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.SecioMode;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.SecioException.Reason;
import io.secio.protocol.SecioException;
import io.secio.testing.SpyBackend;
import io.secio.testing.TestIdentities;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.junit.jupiter.api.Test;

/** Each way a handshake can fail, with its specific reason. */
class HandshakeFailureTest {
  private static final IdentityKeyPair LOCAL = TestIdentities.of(KeyType.ED25519);
  private static final IdentityKeyPair REMOTE = TestIdentities.other(KeyType.ED25519);

  private static SecioConfig config() {
    return SecioConfig.builder(LOCAL).build();
  }

  /** Engine and peer up to the point where the engine waits for the peer's Exchange. */
  private static final class Started {
    final HandshakeEngine engine;
    final ScriptedPeer peer;
    byte[] engineExchange;

    Started(HandshakeEngine engine, ScriptedPeer peer) throws Exception {
      this.engine = engine;
      this.peer = peer;
      byte[] peerPropose = peer.propose();
      peer.receivePropose(engine.start().get(0));
      engineExchange = engine.receive(peerPropose).get(0);
    }
  }

  private static Reason failure(HandshakeEngine engine, byte[] payload) {
    SecioException e = assertThrows(SecioException.class, () -> engine.receive(payload));
    assertEquals(HandshakeEngine.State.FAILED, engine.state());
    // Every later call fails the same way.
    assertSame(e, assertThrows(SecioException.class, () -> engine.receive(payload)));
    return e.reason();
  }

  private static Reason proposeFailure(SecioConfig config, byte[] propose) {
    return proposeFailure(HandshakeEngine.create(config), propose);
  }

  private static Reason proposeFailure(HandshakeEngine engine, byte[] propose) {
    engine.start();
    return failure(engine, propose);
  }

  @Test
  void happyPathThroughTheScriptedPeer() throws Exception {
    Started s = new Started(HandshakeEngine.create(config()), new ScriptedPeer(REMOTE));
    byte[] peerExchange = s.peer.exchange();
    s.peer.receiveExchange(s.engineExchange);
    byte[] echo = s.engine.receive(peerExchange).get(0);
    assertEquals(HandshakeEngine.State.AWAITING_NONCE_ECHO, s.engine.state());
    byte[] echoed = s.peer.open(echo);
    assertTrue(s.engine.receive(s.peer.seal(s.peer.remoteNonce())).isEmpty());
    assertTrue(s.engine.isComplete());
    assertArrayEquals(s.engine.localNonce(), s.peer.remoteNonce());
    assertEquals(16, echoed.length);
  }

  @Test
  void noCommonAlgorithm() {
    SecioConfig v2 = SecioConfig.builder(LOCAL).mode(SecioMode.V0_2_ONLY).build();
    byte[] propose = new ScriptedPeer(REMOTE).proposing("P-256", "AES-256,AES-128", "SHA256").propose();
    assertEquals(Reason.NO_COMMON_ALGORITHMS, proposeFailure(v2, propose));
    byte[] noHash = new ScriptedPeer(REMOTE).proposing("P-256", "AES-128-GCM", "SHA1").propose();
    assertEquals(Reason.NO_COMMON_ALGORITHMS, proposeFailure(config(), noHash));
  }

  @Test
  void twofishBlowfishAndNullAreNeverAccepted() {
    byte[] propose =
        new ScriptedPeer(REMOTE).proposing("P-256", "TwofishCTR,BlowfishCTR,NULL", "SHA256").propose();
    assertEquals(Reason.NO_COMMON_ALGORITHMS, proposeFailure(config(), propose));
  }

  @Test
  void selfConnection() {
    byte[] nonce = new byte[16];
    Arrays.fill(nonce, (byte) 7);
    HandshakeEngine engine = HandshakeEngine.createForKnownAnswers(
        config(), HandshakeEngine.backendOf(config()), nonce, new byte[] {1});
    engine.start();
    byte[] samePropose = new ScriptedPeer(LOCAL).withNonce(nonce).propose();
    assertEquals(Reason.SELF_CONNECTION, failure(engine, samePropose));
  }

  @Test
  void peerIdMismatchIsCheckedBeforeAnyExchangeWork() {
    SpyBackend counting = new SpyBackend(HandshakeEngine.backendOf(config()));
    SecioConfig expectingOther = config().toBuilder()
        .expectedRemotePeer(Dialect.LIBP2P.peerId(TestIdentities.other(KeyType.SECP256K1).publicKey()))
        .build();
    assertEquals(Reason.PEER_ID_MISMATCH,
        proposeFailure(HandshakeEngine.create(expectingOther, counting), new ScriptedPeer(REMOTE).propose()));
    assertEquals(0, counting.ephemeralKeys());
  }

  @Test
  void expectedPeerIdAccepted() throws Exception {
    SecioConfig expecting = config().withExpectedRemotePeer(Dialect.LIBP2P.peerId(REMOTE.publicKey()));
    Started s = new Started(HandshakeEngine.create(expecting), new ScriptedPeer(REMOTE));
    assertEquals(HandshakeEngine.State.AWAITING_EXCHANGE, s.engine.state());
  }

  @Test
  void tamperedProposeFailsTheSignature() throws Exception {
    HandshakeEngine engine = HandshakeEngine.create(config());
    ScriptedPeer peer = new ScriptedPeer(REMOTE);
    byte[] propose = peer.propose();
    peer.receivePropose(engine.start().get(0));
    byte[] tampered = propose.clone();
    tampered[5] ^= 0x01; // inside the nonce: still a valid Propose, but not what the peer signs
    engine.receive(tampered);
    assertEquals(Reason.BAD_SIGNATURE, failure(engine, peer.exchange()));
  }

  @Test
  void signatureOverWrongBytes() throws Exception {
    Started s = new Started(HandshakeEngine.create(config()), new ScriptedPeer(REMOTE));
    s.peer.exchange();
    byte[] wrongSignature = REMOTE.sign("something else".getBytes(StandardCharsets.US_ASCII));
    byte[] exchange = s.peer.exchange(new byte[65], sig -> wrongSignature);
    assertEquals(Reason.BAD_SIGNATURE, failure(s.engine, exchange));
  }

  @Test
  void badEphemeralPoints() throws Exception {
    byte[] offCurve = validP256Point();
    offCurve[64] ^= 0x01;
    byte[] compressed = Arrays.copyOf(validP256Point(), 33);
    compressed[0] = 0x02;
    byte[] infinity = new byte[65];
    for (byte[] epub : List.of(new byte[64], new byte[66], offCurve, compressed, infinity, new byte[1])) {
      Started s = new Started(HandshakeEngine.create(config()), new ScriptedPeer(REMOTE));
      assertEquals(Reason.BAD_EPHEMERAL_KEY,
          failure(s.engine, s.peer.exchange(epub, UnaryOperator.identity())), "epub of " + epub.length);
    }
  }

  @Test
  void x25519AllZeroSecret() throws Exception {
    SecioConfig x = config().toBuilder().exchanges(List.of(ExchangeAlgorithm.X25519)).build();
    for (byte[] lowOrder : List.of(new byte[32], littleEndianOne())) {
      Started s = new Started(HandshakeEngine.create(x), new ScriptedPeer(REMOTE).proposing("X25519", "AES-128-GCM", "SHA256"));
      assertEquals(Reason.BAD_EPHEMERAL_KEY, failure(s.engine, s.peer.exchange(lowOrder, UnaryOperator.identity())));
    }
  }

  @Test
  void highSSecp256k1SignatureRejected() throws Exception {
    ScriptedPeer peer = new ScriptedPeer(TestIdentities.of(KeyType.SECP256K1));
    Started s = new Started(HandshakeEngine.create(config()), peer);
    s.peer.exchange();
    byte[] epub = validP256Point();
    // The same signature with s replaced by n - s: valid ECDSA, but not low-S.
    byte[] highS = peer.exchange(epub, HandshakeFailureTest::toHighS);
    assertEquals(Reason.BAD_SIGNATURE, failure(s.engine, highS));
  }

  @Test
  void wrongOrMissingNonceEcho() throws Exception {
    for (byte[] echo : List.of(new byte[16], new byte[0], "hello".getBytes(StandardCharsets.US_ASCII), new byte[17])) {
      Started s = new Started(HandshakeEngine.create(config()), new ScriptedPeer(REMOTE));
      byte[] peerExchange = s.peer.exchange();
      s.peer.receiveExchange(s.engineExchange);
      s.engine.receive(peerExchange);
      assertEquals(Reason.NONCE_MISMATCH, failure(s.engine, s.peer.seal(echo)), "echo of " + echo.length);
    }
  }

  @Test
  void echoFrameTooShortOrTampered() throws Exception {
    Started s = new Started(HandshakeEngine.create(config()), new ScriptedPeer(REMOTE));
    byte[] peerExchange = s.peer.exchange();
    s.peer.receiveExchange(s.engineExchange);
    s.engine.receive(peerExchange);
    assertEquals(Reason.FRAME_TOO_SHORT, failure(s.engine, new byte[15]));

    Started t = new Started(HandshakeEngine.create(config()), new ScriptedPeer(REMOTE));
    byte[] tExchange = t.peer.exchange();
    t.peer.receiveExchange(t.engineExchange);
    t.engine.receive(tExchange);
    byte[] echo = t.peer.seal(t.peer.remoteNonce());
    echo[3] ^= 0x40;
    assertEquals(Reason.AUTHENTICATION_FAILED, failure(t.engine, echo));
  }

  @Test
  void malformedPropose() {
    byte[] good = new ScriptedPeer(REMOTE).propose();
    assertEquals(Reason.MALFORMED_MESSAGE, proposeFailure(config(), Arrays.copyOf(good, good.length / 2)));
    assertEquals(Reason.MALFORMED_MESSAGE, proposeFailure(config(), new byte[] {(byte) 0xff, (byte) 0xff, 0x01}));
    assertEquals(Reason.MALFORMED_MESSAGE, proposeFailure(config(), new byte[0]));
    for (int nonceSize : new int[] {0, 15, 17, 32}) {
      byte[] propose = new ScriptedPeer(REMOTE).withNonce(new byte[nonceSize]).propose();
      assertEquals(Reason.MALFORMED_MESSAGE, proposeFailure(config(), propose), "nonce of " + nonceSize);
    }
    byte[] noCiphers = new ScriptedPeer(REMOTE).proposing("P-256", "", "SHA256").propose();
    assertEquals(Reason.MALFORMED_MESSAGE, proposeFailure(config(), noCiphers));
    byte[] noHashes = new ScriptedPeer(REMOTE).proposing("P-256", "AES-128-GCM", "").propose();
    assertEquals(Reason.MALFORMED_MESSAGE, proposeFailure(config(), noHashes));
    byte[] noExchanges = new ScriptedPeer(REMOTE).proposing("", "AES-128-GCM", "SHA256").propose();
    assertEquals(Reason.MALFORMED_MESSAGE, proposeFailure(config(), noExchanges));
  }

  @Test
  void unknownOrBadIdentityKey() {
    // PublicKey{Type=5, Data=32 bytes}
    byte[] unknownType = new byte[36];
    unknownType[0] = 0x08;
    unknownType[1] = 0x05;
    unknownType[2] = 0x12;
    unknownType[3] = 0x20;
    byte[] propose = ProtobufMessages.encodePropose(new Propose(
        new byte[16], unknownType, "P-256", "AES-128-GCM", "SHA256"));
    assertEquals(Reason.MALFORMED_MESSAGE, proposeFailure(config(), propose));
    byte[] shortEd25519 = Arrays.copyOf(REMOTE.publicKey().toProtobuf(), 20);
    shortEd25519[3] = 16;
    byte[] propose2 = ProtobufMessages.encodePropose(new Propose(
        new byte[16], shortEd25519, "P-256", "AES-128-GCM", "SHA256"));
    assertEquals(Reason.MALFORMED_MESSAGE, proposeFailure(config(), propose2));
  }

  @Test
  void malformedExchange() throws Exception {
    for (byte[] bad : List.of(new byte[0], new byte[] {0x0a, 0x41, 0x04}, new byte[] {(byte) 0xff, 0x00})) {
      Started s = new Started(HandshakeEngine.create(config()), new ScriptedPeer(REMOTE));
      assertEquals(Reason.MALFORMED_MESSAGE, failure(s.engine, bad));
    }
  }

  @Test
  void aValidKeyWithAnEmptySignatureIsMalformedNotBadlySigned() throws Exception {
    Started s = new Started(HandshakeEngine.create(config()), new ScriptedPeer(REMOTE));
    byte[] exchange = s.peer.exchange(validP256Point(), signature -> new byte[0]);
    assertEquals(Reason.MALFORMED_MESSAGE, failure(s.engine, exchange));
  }

  @Test
  void secondProposeInsteadOfExchangeFails() throws Exception {
    ScriptedPeer peer = new ScriptedPeer(REMOTE);
    Started s = new Started(HandshakeEngine.create(config()), peer);
    Reason r = failure(s.engine, peer.propose());
    assertTrue(r == Reason.BAD_SIGNATURE || r == Reason.MALFORMED_MESSAGE, r.toString());
  }

  @Test
  void externalFailureWipesAndSticks() throws Exception {
    Started s = new Started(HandshakeEngine.create(config()), new ScriptedPeer(REMOTE));
    SecioException timeout = new SecioException(Reason.TIMEOUT);
    assertSame(timeout, s.engine.fail(timeout));
    assertSame(timeout, s.engine.fail(new SecioException(Reason.CLOSED)));
    assertEquals(Reason.TIMEOUT, failure(s.engine, s.peer.exchange()));
    assertThrows(IllegalStateException.class, s.engine::session);
  }

  @Test
  void failingACompleteHandshakeLeavesItComplete() throws Exception {
    InMemoryHandshake h = new InMemoryHandshake(
        HandshakeEngine.create(config()), HandshakeEngine.create(SecioConfig.builder(REMOTE).build())).run();
    SecioException timeout = new SecioException(Reason.TIMEOUT);
    assertSame(timeout, h.a.fail(timeout));
    assertTrue(h.a.isComplete());
    // The session's ciphers are still live in both directions.
    byte[] toB = h.ciphersA().sealer().seal(new byte[] {1, 2, 3});
    assertArrayEquals(new byte[] {1, 2, 3}, h.ciphersB().opener().open(toB));
    byte[] toA = h.ciphersB().sealer().seal(new byte[] {4});
    assertArrayEquals(new byte[] {4}, h.ciphersA().opener().open(toA));
  }

  private static byte[] validP256Point() throws Exception {
    return HandshakeEngine.backendOf(config()).generateEphemeral(ExchangeAlgorithm.P_256, new java.security.SecureRandom()).publicKey();
  }

  private static byte[] littleEndianOne() {
    byte[] one = new byte[32];
    one[0] = 1;
    return one;
  }

  private static byte[] toHighS(byte[] der) {
    try {
      ASN1Sequence seq = ASN1Sequence.getInstance(der);
      BigInteger r = ASN1Integer.getInstance(seq.getObjectAt(0)).getValue();
      BigInteger s = ASN1Integer.getInstance(seq.getObjectAt(1)).getValue();
      BigInteger n = CustomNamedCurves.getByName("secp256k1").getN();
      return new DERSequence(new org.bouncycastle.asn1.ASN1Encodable[] {
          new ASN1Integer(r), new ASN1Integer(n.subtract(s))}).getEncoded();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void anEngineShowsItsDialectStateAndPeerIdAndNoSecret() throws Exception {
    HandshakeEngine engine = HandshakeEngine.create(config());
    String created = engine.toString();
    engine.start();
    String started = engine.toString();

    assertTrue(created.contains(Dialect.LIBP2P.peerId(LOCAL.publicKey()).toBase58()), created);
    assertTrue(created.contains("LIBP2P"), created);
    assertNotEquals(created, started, "the state does not show");
    // No run of hex digits as long as a 16-byte key (this test identity's base58 peer id has none).
    assertFalse(started.matches(".*[0-9a-fA-F]{32}.*"), started);
  }
}
