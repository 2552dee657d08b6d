package io.secio.handshake;

import static io.secio.testing.Vectors.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.SecioMode;
import io.secio.SecioSession;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.protocol.SecioException;
import io.secio.testing.TentacleTranscripts;
import io.secio.testing.TestIdentities;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The engine in the tentacle dialect: what it proposes, whom it refuses, and how a listener picks. */
class TentacleHandshakeTest {
  private static final IdentityKeyPair LOCAL = TestIdentities.of(KeyType.SECP256K1);
  private static final IdentityKeyPair REMOTE = TestIdentities.other(KeyType.SECP256K1);

  private static SecioConfig tentacle(IdentityKeyPair identity) {
    return SecioConfig.builder(identity).dialect(Dialect.TENTACLE).build();
  }

  static Stream<Arguments> everyTentacleSuite() {
    List<Arguments> suites = new ArrayList<>();
    for (ExchangeAlgorithm e : Dialect.TENTACLE.exchanges()) {
      for (CipherAlgorithm c : Dialect.TENTACLE.ciphers()) {
        for (HashAlgorithm h : Dialect.TENTACLE.hashes()) {
          suites.add(Arguments.of(e, c, h));
        }
      }
    }
    return suites.stream();
  }

  @ParameterizedTest(name = "{0} {1} {2}")
  @MethodSource("everyTentacleSuite")
  void twoEnginesAgreeOnEverySuite(ExchangeAlgorithm e, CipherAlgorithm c, HashAlgorithm h)
      throws SecioException {
    SecioConfig a = tentacle(LOCAL).toBuilder().exchanges(List.of(e)).ciphers(List.of(c)).hashes(List.of(h)).build();
    SecioConfig b = tentacle(REMOTE).toBuilder().exchanges(List.of(e)).ciphers(List.of(c)).hashes(List.of(h)).build();
    InMemoryHandshake run = new InMemoryHandshake(HandshakeEngine.create(a), HandshakeEngine.create(b)).run();
    SecioSession sa = run.sessionA();
    SecioSession sb = run.sessionB();
    assertEquals(Dialect.TENTACLE, sa.dialect());
    assertEquals(e, sa.exchange());
    assertEquals(c, sb.cipher());
    assertEquals(h, sb.hash());
    assertEquals(Dialect.TENTACLE.peerId(REMOTE.publicKey()), sa.remotePeerId());
    assertEquals(sb.localPeerId(), sa.remotePeerId());
    assertArrayEquals("ping".getBytes(),
        run.ciphersB().opener().open(run.ciphersA().sealer().seal("ping".getBytes())));
  }

  @Test
  void theDefaultListsBecomeTentaclesOwnAndTheProposeIsTentaclesByte() {
    // A of defaults_fixed, with this project's default (bridge) lists: the same 173 bytes.
    JsonObject a = TentacleTranscripts.load("defaults_fixed").getAsJsonObject("A");
    SecioConfig config = tentacle(TestIdentities.secp256k1(hex(a, "seckey")));
    assertEquals(SecioMode.BRIDGE.exchanges(), config.exchanges());
    HandshakeEngine engine = HandshakeEngine.createForKnownAnswers(
        config, HandshakeEngine.backendOf(config), hex(a, "nonce"), hex(a, "eph_secret"));
    assertArrayEquals(hex(a, "propose"), engine.start().get(0));
  }

  @Test
  void aPeerWithOurOwnKeyIsRefusedWhateverItsNonce() {
    HandshakeEngine engine = HandshakeEngine.create(tentacle(LOCAL));
    byte[] ours = engine.start().get(0);
    Propose mirror = new Propose(new byte[16], MoleculeMessages.encodePublicKey(LOCAL.publicKey().keyData()),
        "P-256", "AES-128-GCM", "SHA256");
    SecioException e = assertThrows(SecioException.class,
        () -> engine.receive(MoleculeMessages.encodePropose(mirror)));
    assertEquals(SecioException.Reason.SELF_CONNECTION, e.reason());
    // And our own Propose echoed back, of course.
    HandshakeEngine other = HandshakeEngine.create(tentacle(LOCAL));
    other.start();
    assertEquals(SecioException.Reason.SELF_CONNECTION,
        assertThrows(SecioException.class, () -> other.receive(ours)).reason());
  }

  @Test
  void theExpectedPeerIsMatchedInTentaclesForm() throws SecioException {
    SecioConfig expectingTentacleId =
        tentacle(LOCAL).withExpectedRemotePeer(Dialect.TENTACLE.peerId(REMOTE.publicKey()));
    InMemoryHandshake ok = new InMemoryHandshake(
        HandshakeEngine.create(expectingTentacleId), HandshakeEngine.create(tentacle(REMOTE))).run();
    assertTrue(ok.a.isComplete() && ok.b.isComplete());

    SecioConfig expectingLibp2pId = tentacle(LOCAL).withExpectedRemotePeer(Dialect.LIBP2P.peerId(REMOTE.publicKey()));
    InMemoryHandshake wrong = new InMemoryHandshake(
        HandshakeEngine.create(expectingLibp2pId), HandshakeEngine.create(tentacle(REMOTE))).run();
    assertEquals(SecioException.Reason.PEER_ID_MISMATCH, wrong.failureA.reason());
  }

  @Test
  void eachDialectRefusesTheOthersProposeAsMalformed() {
    HandshakeEngine libp2p = HandshakeEngine.create(SecioConfig.builder(LOCAL).build());
    HandshakeEngine tentacle = HandshakeEngine.create(tentacle(LOCAL));
    byte[] protobufPropose = HandshakeEngine.create(SecioConfig.builder(REMOTE).build()).start().get(0);
    byte[] moleculePropose = HandshakeEngine.create(tentacle(REMOTE)).start().get(0);
    libp2p.start();
    tentacle.start();
    assertEquals(SecioException.Reason.MALFORMED_MESSAGE,
        assertThrows(SecioException.class, () -> libp2p.receive(moleculePropose)).reason());
    assertEquals(SecioException.Reason.MALFORMED_MESSAGE,
        assertThrows(SecioException.class, () -> tentacle.receive(protobufPropose)).reason());
  }

  @Test
  void extraTrailingFieldsAreAcceptedUpToTheHandshakeMessageCap() throws SecioException {
    SecioConfig config = tentacle(LOCAL);
    byte[] propose = HandshakeEngine.create(tentacle(REMOTE)).start().get(0);
    int room = config.maxHandshakeMessageLength() - propose.length - 4;
    HandshakeEngine fits = HandshakeEngine.create(config);
    fits.start();
    fits.receive(MoleculeMessagesTest.withExtraField(propose, new byte[room]));
    assertEquals(HandshakeEngine.State.AWAITING_EXCHANGE, fits.state());
    HandshakeEngine over = HandshakeEngine.create(config);
    over.start();
    SecioException e = assertThrows(SecioException.class,
        () -> over.receive(MoleculeMessagesTest.withExtraField(propose, new byte[room + 1])));
    assertEquals(SecioException.Reason.HANDSHAKE_MESSAGE_TOO_LONG, e.reason());
  }

  @Test
  void aTentaclePeerMustPresentAValidSecp256k1Key() {
    HandshakeEngine engine = HandshakeEngine.create(tentacle(LOCAL));
    engine.start();
    Propose badKey = new Propose(new byte[16], MoleculeMessages.encodePublicKey(new byte[33]),
        "P-256", "AES-128-GCM", "SHA256");
    assertEquals(SecioException.Reason.MALFORMED_MESSAGE, assertThrows(SecioException.class,
        () -> engine.receive(MoleculeMessages.encodePropose(badKey))).reason());
  }

  @Test
  void aListenerForAnyDialectAnswersInTheDialersOne() {
    SecioConfig any = SecioConfig.builder(LOCAL).anyDialect().build();
    byte[] protobufPropose = HandshakeEngine.create(SecioConfig.builder(REMOTE).build()).start().get(0);
    byte[] moleculePropose = HandshakeEngine.create(tentacle(REMOTE)).start().get(0);
    assertEquals(Dialect.TENTACLE, HandshakeEngine.dialectToAnswer(any, ByteBuffer.wrap(moleculePropose)));
    assertEquals(Dialect.LIBP2P, HandshakeEngine.dialectToAnswer(any, ByteBuffer.wrap(protobufPropose)));
    // A forced dialect is answered whatever comes; an identity tentacle cannot carry answers libp2p.
    assertEquals(Dialect.TENTACLE, HandshakeEngine.dialectToAnswer(tentacle(LOCAL), ByteBuffer.wrap(protobufPropose)));
    SecioConfig anyEd25519 = SecioConfig.builder(TestIdentities.of(KeyType.ED25519)).anyDialect().build();
    assertEquals(Dialect.LIBP2P, HandshakeEngine.dialectToAnswer(anyEd25519, ByteBuffer.wrap(moleculePropose)));
    // A dialer must state its dialect.
    assertThrows(IllegalStateException.class, () -> HandshakeEngine.create(any));
    assertEquals(Dialect.TENTACLE, HandshakeEngine.create(any, Dialect.TENTACLE).dialect());
    assertThrows(IllegalArgumentException.class, () -> HandshakeEngine.create(anyEd25519, Dialect.TENTACLE));
  }

  @Test
  void aTentacleConfigNeedsASecp256k1KeyAndSomethingTentacleNegotiates() {
    SecioConfig.Builder ed25519 = SecioConfig.builder(TestIdentities.of(KeyType.ED25519));
    assertThrows(IllegalArgumentException.class, () -> ed25519.dialect(Dialect.TENTACLE).build());
    SecioConfig.Builder ctrOnly = SecioConfig.builder(LOCAL).mode(SecioMode.V0_1_ONLY);
    assertThrows(IllegalArgumentException.class, () -> ctrOnly.dialect(Dialect.TENTACLE).build());
    SecioConfig.Builder p521 = SecioConfig.builder(LOCAL).exchanges(List.of(ExchangeAlgorithm.P_521));
    assertThrows(IllegalArgumentException.class, () -> p521.dialect(Dialect.TENTACLE).build());
    assertEquals(Dialect.LIBP2P, SecioConfig.builder(LOCAL).build().dialect().orElseThrow());
    assertNull(SecioConfig.builder(LOCAL).anyDialect().build().dialect().orElse(null));
  }
}
