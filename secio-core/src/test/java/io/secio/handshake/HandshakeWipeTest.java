package io.secio.handshake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.SecioConfig;
import io.secio.crypto.CryptoBackends;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.protocol.SecioException.Reason;
import io.secio.protocol.SecioException;
import io.secio.testing.SpyBackend;
import io.secio.testing.TestIdentities;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The engine's secrets, seen through a spy backend: the ephemeral key is destroyed and the shared
 * secret zeroed as soon as the frame keys are made; a failure at any step destroys whatever the engine
 * made so far; a complete handshake hands its live ciphers to the session and fail() leaves them be;
 * calls made in the wrong state are refused.
 */
class HandshakeWipeTest {
  private static final IdentityKeyPair LOCAL = TestIdentities.of(KeyType.ED25519);
  private static final IdentityKeyPair REMOTE = TestIdentities.other(KeyType.ED25519);

  private final SpyBackend spy = new SpyBackend(CryptoBackends.defaultBackend());
  private final HandshakeEngine engine =
      HandshakeEngine.create(SecioConfig.builder(LOCAL).build(), spy);
  private final ScriptedPeer peer = new ScriptedPeer(REMOTE);

  /** Propose both ways: the engine has made its ephemeral key and sent its Exchange. */
  private byte[] toAwaitingExchange() throws Exception {
    byte[] propose = peer.propose();
    peer.receivePropose(engine.start().get(0));
    return engine.receive(propose).get(0);
  }

  /** Exchange both ways: the engine has its frame ciphers and waits for the echo. */
  private void toAwaitingNonceEcho() throws Exception {
    byte[] engineExchange = toAwaitingExchange();
    byte[] peerExchange = peer.exchange();
    peer.receiveExchange(engineExchange);
    engine.receive(peerExchange);
    assertEquals(HandshakeEngine.State.AWAITING_NONCE_ECHO, engine.state());
  }

  private void assertSecretsZeroed() {
    assertEquals(1, spy.sharedSecrets().size());
    assertTrue(SpyBackend.isZero(spy.sharedSecrets().get(0)), "shared secret zeroed");
    assertFalse(spy.keyArguments().isEmpty());
    for (byte[] key : spy.keyArguments()) {
      assertTrue(SpyBackend.isZero(key), "the engine's copy of a frame key zeroed");
    }
  }

  @Test
  void theEphemeralKeyAndSecretAreGoneOnceTheFrameKeysExist() throws Exception {
    toAwaitingNonceEcho();
    assertSecretsZeroed();
    // Left: the sealer's and the opener's AEAD, and nothing else.
    assertEquals(3, spy.objectsMade());
    assertEquals(2, spy.undestroyed().size(), spy.undestroyed().toString());
    assertTrue(engine.receive(peer.seal(peer.remoteNonce())).isEmpty());
    assertTrue(engine.isComplete());
    assertEquals(2, spy.undestroyed().size(), "a complete handshake keeps its ciphers");
    engine.split().destroy();
    assertEquals(List.of(), spy.undestroyed());
  }

  @Test
  void aFailureWhileAwaitingTheExchangeDestroysTheEphemeralKey() throws Exception {
    toAwaitingExchange();
    assertEquals(1, spy.undestroyed().size());
    engine.fail(new SecioException(Reason.TIMEOUT));
    assertEquals(List.of(), spy.undestroyed());
  }

  @Test
  void aBadExchangeDestroysTheEphemeralKey() throws Exception {
    toAwaitingExchange();
    byte[] badlySigned = peer.exchange(new byte[65], signature -> signature);
    assertThrows(SecioException.class, () -> engine.receive(badlySigned));
    assertEquals(List.of(), spy.undestroyed());
  }

  @Test
  void aBadEchoDestroysTheFrameCiphers() throws Exception {
    toAwaitingNonceEcho();
    byte[] wrongEcho = peer.seal(new byte[16]);
    assertEquals(Reason.NONCE_MISMATCH,
        assertThrows(SecioException.class, () -> engine.receive(wrongEcho)).reason());
    assertSecretsZeroed();
    assertEquals(List.of(), spy.undestroyed());
  }

  @Test
  void failingACompleteHandshakeDestroysNothing() throws Exception {
    toAwaitingNonceEcho();
    engine.receive(peer.seal(peer.remoteNonce()));
    engine.fail(new SecioException(Reason.TIMEOUT));
    assertEquals(2, spy.undestroyed().size(), spy.undestroyed().toString());
  }

  @Test
  void callsInTheWrongStateAreRefused() throws Exception {
    assertThrows(IllegalStateException.class, () -> engine.receive(peer.propose()), "before start()");
    toAwaitingNonceEcho();
    assertThrows(IllegalStateException.class, engine::start, "start() twice");
    engine.receive(peer.seal(peer.remoteNonce()));
    assertThrows(IllegalStateException.class, () -> engine.receive(new byte[1]), "after completion");
    assertTrue(engine.isComplete());
  }
}
