package io.secio.handshake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.Dialect;
import io.secio.PeerId;
import io.secio.PeerVerifier;
import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.IdentityPublicKey;
import io.secio.identity.KeyType;
import io.secio.protocol.SecioException.Reason;
import io.secio.protocol.SecioException;
import io.secio.testing.SigningThreads;
import io.secio.testing.SpyBackend;
import io.secio.testing.TestIdentities;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Who may connect: the verifier is asked once, before any signature or ECDH work. */
class PeerVerifierTest {
  private static final IdentityKeyPair LOCAL = TestIdentities.of(KeyType.ED25519);
  private static final IdentityKeyPair REMOTE = TestIdentities.other(KeyType.ED25519);
  private static final PeerId REMOTE_ID = Dialect.LIBP2P.peerId(REMOTE.publicKey());
  private static final PeerId STRANGER_ID = Dialect.LIBP2P.peerId(TestIdentities.other(KeyType.SECP256K1).publicKey());

  private final SigningThreads identity = new SigningThreads(LOCAL);
  private final SpyBackend backend =
      new SpyBackend(HandshakeEngine.backendOf(SecioConfig.builder(LOCAL).build()));

  private SecioConfig config(PeerVerifier verifier) {
    return SecioConfig.builder(identity).peerVerifier(verifier).build();
  }

  /** An engine of {@code config} on the spy backend. */
  private HandshakeEngine engine(SecioConfig config) {
    return HandshakeEngine.create(config, backend);
  }

  private HandshakeEngine engine(PeerVerifier verifier) {
    return engine(config(verifier));
  }

  /** The failure of an engine fed the remote Propose. */
  private static SecioException refusal(HandshakeEngine engine) {
    engine.start();
    byte[] propose = new ScriptedPeer(REMOTE).propose();
    SecioException e = assertThrows(SecioException.class, () -> engine.receive(propose));
    assertEquals(HandshakeEngine.State.FAILED, engine.state());
    return e;
  }

  @Test
  void aPeerOnTheAllowListGetsItsExchange() throws Exception {
    HandshakeEngine engine = engine(PeerVerifier.allowList(Set.of(REMOTE_ID)));
    engine.start();
    assertEquals(1, engine.receive(new ScriptedPeer(REMOTE).propose()).size());
    assertEquals(HandshakeEngine.State.AWAITING_EXCHANGE, engine.state());
  }

  @Test
  void aPeerOffTheAllowListIsRefusedBeforeAnySignatureOrEcdh() {
    SecioException e = refusal(engine(PeerVerifier.allowList(Set.of(STRANGER_ID))));
    assertEquals(Reason.PEER_REFUSED, e.reason());
    assertTrue(e.getMessage().contains(REMOTE_ID.toString()), e.getMessage());
    assertEquals(0, backend.ephemeralKeys(), "ECDH work for a refused peer");
    assertEquals(0, identity.threads.size(), "a signature for a refused peer");
  }

  @Test
  void theVerifierSeesThePeerIdAndTheKeyItCameFrom() throws Exception {
    List<PeerId> peers = new ArrayList<>();
    List<IdentityPublicKey> keys = new ArrayList<>();
    new InMemoryHandshake(
        engine((peer, key) -> peers.add(peer) && keys.add(key)),
        HandshakeEngine.create(SecioConfig.builder(REMOTE).build()))
        .run();
    assertEquals(List.of(REMOTE_ID), peers, "asked exactly once");
    assertEquals(REMOTE.publicKey(), keys.get(0));
    assertTrue(Dialect.LIBP2P.matches(REMOTE_ID, keys.get(0)));
  }

  @Test
  void bothSidesCompleteWhenAccepted() {
    InMemoryHandshake h = new InMemoryHandshake(
        engine(PeerVerifier.allowList(List.of(REMOTE_ID))),
        HandshakeEngine.create(SecioConfig.builder(REMOTE)
            .peerVerifier(PeerVerifier.allowList(List.of(Dialect.LIBP2P.peerId(LOCAL.publicKey())))).build()))
        .run();
    assertNull(h.failureA);
    assertNull(h.failureB);
    assertEquals(REMOTE_ID, h.sessionA().remotePeerId());
  }

  @Test
  void aVerifierThatThrowsRefusesWithItsExceptionAsTheCause() {
    IllegalStateException broken = new IllegalStateException("allow-list unavailable");
    SecioException e = refusal(engine((peer, key) -> {
      throw broken;
    }));
    assertEquals(Reason.PEER_REFUSED, e.reason());
    assertSame(broken, e.getCause());
    assertEquals(0, identity.threads.size());
  }

  @Test
  void anExpectedPeerMismatchIsReportedAsSuchEvenIfTheVerifierWouldAccept() {
    SecioConfig config = config(PeerVerifier.ACCEPT_ALL).withExpectedRemotePeer(STRANGER_ID);
    assertEquals(Reason.PEER_ID_MISMATCH, refusal(engine(config)).reason());
    SecioConfig both = config(PeerVerifier.allowList(Set.of(STRANGER_ID))).withExpectedRemotePeer(REMOTE_ID);
    assertEquals(Reason.PEER_REFUSED, refusal(engine(both)).reason(), "both must pass");
  }

  @Test
  void theAllowListIsACopy() throws Exception {
    List<PeerId> allowed = new ArrayList<>(List.of(REMOTE_ID));
    PeerVerifier verifier = PeerVerifier.allowList(allowed);
    allowed.clear();
    assertTrue(verifier.accept(REMOTE_ID, REMOTE.publicKey()));
    assertFalse(verifier.accept(STRANGER_ID, REMOTE.publicKey()));
  }
}
