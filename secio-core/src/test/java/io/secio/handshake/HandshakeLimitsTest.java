package io.secio.handshake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.secio.SecioConfig;
import io.secio.crypto.CryptoBackends;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.IdentityPublicKey;
import io.secio.identity.KeyType;
import io.secio.protocol.SecioException.Reason;
import io.secio.protocol.SecioException;
import io.secio.testing.FailingBackend;
import io.secio.testing.TestIdentities;
import java.security.ProviderException;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The bounds on handshake messages and Propose lists, self-connection by key, and whose fault a failure
 * is: only bytes from the peer that do not parse are its {@code MALFORMED_MESSAGE}.
 */
class HandshakeLimitsTest {
  private static final IdentityKeyPair LOCAL = TestIdentities.of(KeyType.ED25519);
  private static final IdentityKeyPair REMOTE = TestIdentities.other(KeyType.ED25519);

  private static Reason proposeFailure(SecioConfig config, byte[] propose) {
    return proposeFailure(HandshakeEngine.create(config), propose);
  }

  private static Reason proposeFailure(HandshakeEngine engine, byte[] propose) {
    engine.start();
    SecioException e = assertThrows(SecioException.class, () -> engine.receive(propose));
    assertEquals(HandshakeEngine.State.FAILED, engine.state());
    return e.reason();
  }

  private static SecioConfig config() {
    return SecioConfig.builder(LOCAL).build();
  }

  @Test
  void ourOwnKeyIsASelfConnectionWhateverTheNonces() {
    HandshakeEngine a = HandshakeEngine.create(config());
    HandshakeEngine b = HandshakeEngine.create(config());
    a.start();
    byte[] proposeOfB = b.start().get(0);
    SecioException e = assertThrows(SecioException.class, () -> a.receive(proposeOfB));
    assertEquals(Reason.SELF_CONNECTION, e.reason());
  }

  @Test
  void handshakeMessageOverTheLimitFailsBeforeParsing() {
    int limit = SecioConfig.DEFAULT_MAX_HANDSHAKE_MESSAGE_LENGTH_IN_BYTES;
    assertEquals(limit, config().maxHandshakeMessageLength());
    assertEquals(Reason.HANDSHAKE_MESSAGE_TOO_LONG, proposeFailure(config(), new byte[limit + 1]));
    // At the limit the message is parsed: zeros are no Propose.
    assertEquals(Reason.MALFORMED_MESSAGE, proposeFailure(config(), new byte[limit]));
    SecioConfig small = config().toBuilder().maxHandshakeMessageLength(1024).build();
    byte[] padded = new ScriptedPeer(REMOTE).proposing("P-256", "AES-128-GCM," + "x".repeat(1100), "SHA256")
        .propose();
    assertEquals(Reason.HANDSHAKE_MESSAGE_TOO_LONG, proposeFailure(small, padded));
  }

  @Test
  void handshakeLimitNeverExceedsTheFrameLimit() {
    SecioConfig c = config().toBuilder().maxFrameLength(4096).build();
    assertEquals(4096, c.maxHandshakeMessageLength());
    assertThrows(IllegalArgumentException.class,
        () -> config().toBuilder().maxHandshakeMessageLength(1023));
  }

  @Test
  void proposalListsAreBoundedInEntriesAndNameLength() throws Exception {
    String sixtyThree = String.join(",", Collections.nCopies(63, "NOPE")) + ",AES-128-GCM";
    // 64 entries: accepted, negotiated, answered with an Exchange.
    HandshakeEngine engine = HandshakeEngine.create(config());
    engine.start();
    List<byte[]> answer =
        engine.receive(new ScriptedPeer(REMOTE).proposing("P-256", sixtyThree, "SHA256").propose());
    assertEquals(1, answer.size());

    String sixtyFive = "NOPE," + sixtyThree;
    assertEquals(Reason.PROPOSAL_TOO_LONG, proposeFailure(config(),
        new ScriptedPeer(REMOTE).proposing("P-256", sixtyFive, "SHA256").propose()));
    // A name of exactly 64 characters is within the bound; one more is not.
    HandshakeEngine longName = HandshakeEngine.create(config());
    longName.start();
    assertEquals(1, longName.receive(new ScriptedPeer(REMOTE)
        .proposing("P-256", "AES-128-GCM", "SHA256," + "S".repeat(64)).propose()).size());
    assertEquals(Reason.PROPOSAL_TOO_LONG, proposeFailure(config(),
        new ScriptedPeer(REMOTE).proposing("P-256", "AES-128-GCM", "SHA256," + "S".repeat(65)).propose()));
    // The hostile list of one-letter names that would become tens of thousands of strings.
    String hostile = String.join(",", Collections.nCopies(30_000, "a"));
    assertEquals(Reason.PROPOSAL_TOO_LONG, proposeFailure(config(),
        new ScriptedPeer(REMOTE).proposing(hostile, "AES-128-GCM", "SHA256").propose()));
  }

  @Test
  void aBackendThatThrowsIsALocalFailureNotTheMalformedPeer() {
    FailingBackend failing = new FailingBackend(CryptoBackends.defaultBackend());
    failing.failEphemeralKeys(new ProviderException("token removed"));
    HandshakeEngine engine = HandshakeEngine.create(config(), failing);
    assertEquals(Reason.LOCAL_FAILURE, proposeFailure(engine, new ScriptedPeer(REMOTE).propose()));
  }

  @Test
  void aSigningFailureIsALocalFailureNotTheMalformedPeer() {
    IdentityKeyPair cannotSign = new IdentityKeyPair() {
      @Override
      public KeyType type() {
        return LOCAL.type();
      }

      @Override
      public IdentityPublicKey publicKey() {
        return LOCAL.publicKey();
      }

      @Override
      public byte[] sign(byte[] message) {
        throw new IllegalStateException("signer unavailable");
      }

      @Override
      public byte[] toProtobuf() {
        return LOCAL.toProtobuf();
      }
    };
    SecioConfig c = SecioConfig.builder(cannotSign).build();
    assertEquals(Reason.LOCAL_FAILURE, proposeFailure(c, new ScriptedPeer(REMOTE).propose()));
  }
}
