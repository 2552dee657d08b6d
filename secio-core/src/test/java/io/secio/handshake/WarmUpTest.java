package io.secio.handshake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.Dialect;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.SecioObserver;
import io.secio.SecioSession;
import io.secio.crypto.CryptoBackend;
import io.secio.crypto.CryptoBackends;
import io.secio.crypto.Primitive;
import io.secio.identity.KeyType;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.protocol.SecioException;
import io.secio.testing.ForwardingBackend;
import io.secio.testing.SpyBackend;
import io.secio.testing.TestIdentities;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link WarmUp} does, at start-up, the work a first handshake would: it asks the backend for every
 * proposed primitive, signs and verifies with the identity's key type, derives keys and seals and
 * opens frames, leaves no key undestroyed, and tells the config's verifier and observer nothing.
 */
class WarmUpTest {

  /** The signature primitive of each identity key type. */
  private static Primitive signatureOf(KeyType type) {
    switch (type) {
      case ED25519:
        return Primitive.ED25519;
      case ECDSA:
        return Primitive.ECDSA_P256;
      case SECP256K1:
        return Primitive.ECDSA_SECP256K1;
      default:
        return Primitive.RSA_SHA256;
    }
  }

  @ParameterizedTest
  @EnumSource(KeyType.class)
  void rehearsesAWholeHandshakeOnTheConfigsBackendAndDestroysItsKeys(KeyType type)
      throws SecioException {
    SpyBackend spy = new SpyBackend(CryptoBackends.defaultBackend());
    SecioConfig config = SecioConfig.builder(TestIdentities.of(type)).build();

    WarmUp.run(config, spy);

    // Both ends of the rehearsal use the config's backend: each signs once and checks the other.
    assertEquals(List.of(signatureOf(type), signatureOf(type)), spy.signed());
    assertEquals(List.of(signatureOf(type), signatureOf(type)), spy.verified());
    assertEquals(2, spy.ephemeralKeys());
    assertTrue(spy.objectsMade() > 0, "the frame ciphers were made");
    assertEquals(List.of(), spy.undestroyed());
  }

  @Test
  void asksTheBackendForEveryProposedPrimitiveNotOnlyTheNegotiatedOnes() throws SecioException {
    Set<Primitive> asked = EnumSet.noneOf(Primitive.class);
    CryptoBackend recording = new ForwardingBackend(CryptoBackends.defaultBackend()) {
      @Override
      public boolean offers(Primitive primitive) {
        asked.add(primitive);
        return super.offers(primitive);
      }
    };
    SecioConfig config = SecioConfig.builder(TestIdentities.of(KeyType.ED25519)).build();

    WarmUp.run(config, recording);

    Set<Primitive> proposed = EnumSet.noneOf(Primitive.class);
    config.exchanges().forEach(e -> proposed.add(Primitive.of(e)));
    config.ciphers().forEach(c -> proposed.add(Primitive.of(c)));
    config.hashes().forEach(h -> proposed.add(Primitive.of(h)));
    assertTrue(asked.containsAll(proposed), "asked " + asked + ", proposed " + proposed);
    assertTrue(proposed.contains(Primitive.X25519) && proposed.contains(Primitive.CHACHA20_POLY1305),
        "the default proposals reach past the first choice");
  }

  @Test
  void neverAsksTheConfigsVerifierNorTellsItsObserver() throws SecioException {
    List<PeerId> asked = new ArrayList<>();
    List<String> told = new ArrayList<>();
    SecioConfig config = SecioConfig.builder(TestIdentities.of(KeyType.ED25519))
        .peerVerifier((peer, key) -> {
          asked.add(peer);
          return false;
        })
        .expectedRemotePeer(Dialect.LIBP2P.peerId(TestIdentities.other(KeyType.ED25519).publicKey()))
        .observer(new SecioObserver() {
          @Override
          public void handshakeSucceeded(SecioSession session, Duration duration) {
            told.add("succeeded");
          }

          @Override
          public void handshakeFailed(SecioException.Reason reason, Duration duration) {
            told.add("failed " + reason);
          }
        })
        .build();

    WarmUp.run(config);

    assertEquals(List.of(), asked);
    assertEquals(List.of(), told);
  }

  @Test
  void aListenerOfAnyDialectRehearsesEachDialectItsKeyCanSpeak() throws SecioException {
    SpyBackend stated = new SpyBackend(CryptoBackends.defaultBackend());
    SpyBackend any = new SpyBackend(CryptoBackends.defaultBackend());
    SecioConfig.Builder secp256k1 = SecioConfig.builder(TestIdentities.of(KeyType.SECP256K1));

    WarmUp.run(secp256k1.dialect(Dialect.TENTACLE).build(), stated);
    WarmUp.run(secp256k1.anyDialect().build(), any);

    assertEquals(2, stated.signed().size());
    assertEquals(4, any.signed().size(), "one rehearsal in libp2p's dialect, one in tentacle's");
  }

  @Test
  void failsAtStartUpWhereEveryHandshakeWouldFail() {
    SpyBackend noGcm = new SpyBackend(CryptoBackends.defaultBackend()).withholding(Primitive.AES_GCM);
    SecioConfig config = SecioConfig.builder(TestIdentities.of(KeyType.ED25519))
        .exchanges(List.of(ExchangeAlgorithm.P_256))
        .ciphers(List.of(CipherAlgorithm.AES_128_GCM))
        .hashes(List.of(HashAlgorithm.SHA256))
        .build();

    assertThrows(IllegalStateException.class, () -> WarmUp.run(config, noGcm));
  }

  @Test
  void refusesNoConfig() {
    assertThrows(NullPointerException.class, () -> WarmUp.run(null));
  }
}
