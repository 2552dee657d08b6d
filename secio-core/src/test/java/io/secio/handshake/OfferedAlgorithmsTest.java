package io.secio.handshake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.SecioConfig;
import io.secio.crypto.CryptoBackends;
import io.secio.crypto.Primitive;
import io.secio.identity.KeyType;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.protocol.SecioException;
import io.secio.testing.SpyBackend;
import io.secio.testing.TestIdentities;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A Propose offers only what the backend can do: an algorithm the backend lacks is left out, and a
 * backend that lacks every proposed algorithm of a kind is a configuration error, found at start().
 */
class OfferedAlgorithmsTest {

  private static final SecioConfig CONFIG = SecioConfig.builder(TestIdentities.of(KeyType.ED25519)).build();

  private static HandshakeEngine engineOn(SpyBackend backend) {
    return HandshakeEngine.create(CONFIG, backend);
  }

  private static SpyBackend backend() {
    return new SpyBackend(CryptoBackends.defaultBackend());
  }

  @Test
  void everythingOfferedIsProposedInTheConfiguredOrder() throws SecioException {
    assertProposes(Set.of());
  }

  @Test
  void whatTheBackendLacksIsNotProposed() throws SecioException {
    Propose propose = assertProposes(
        Set.of(Primitive.ECDH_P384, Primitive.X25519, Primitive.AES_GCM, Primitive.HMAC_SHA256));
    // the default configuration proposes all of them, so something really was left out
    assertFalse(propose.exchanges().contains("X25519"), propose.exchanges());
    assertFalse(propose.ciphers().contains("GCM"), propose.ciphers());
    assertEquals("SHA512", propose.hashes());
  }

  private static Propose assertProposes(Set<Primitive> withheld) throws SecioException {
    HandshakeEngine engine = engineOn(backend().withholding(withheld.toArray(Primitive[]::new)));
    Propose propose = ProtobufMessages.decodePropose(engine.start().get(0));
    assertEquals(offered(CONFIG.exchanges(), Primitive::of, ExchangeAlgorithm::wireName, withheld),
        propose.exchanges());
    assertEquals(offered(CONFIG.ciphers(), Primitive::of, CipherAlgorithm::wireName, withheld),
        propose.ciphers());
    assertEquals(offered(CONFIG.hashes(), Primitive::of, HashAlgorithm::wireName, withheld),
        propose.hashes());
    return propose;
  }

  private static <T> String offered(
      List<T> configured, Function<T, Primitive> primitive, Function<T, String> wireName,
      Set<Primitive> withheld) {
    return configured.stream()
        .filter(a -> !withheld.contains(primitive.apply(a)))
        .map(wireName)
        .collect(Collectors.joining(","));
  }

  @Test
  void aBackendOfferingNoneOfAKindFailsAtStart() {
    assertOffersNone("exchanges",
        Primitive.ECDH_P256, Primitive.ECDH_P384, Primitive.ECDH_P521, Primitive.X25519);
    assertOffersNone("ciphers", Primitive.AES_GCM, Primitive.CHACHA20_POLY1305, Primitive.AES_CTR);
    assertOffersNone("hashes", Primitive.HMAC_SHA256, Primitive.HMAC_SHA512);
  }

  private static void assertOffersNone(String kind, Primitive... withheld) {
    HandshakeEngine engine = engineOn(backend().withholding(withheld));
    IllegalStateException e = assertThrows(IllegalStateException.class, engine::start);
    assertTrue(e.getMessage().contains("offers none of the proposed " + kind), e.getMessage());
    assertEquals(HandshakeEngine.State.NEW, engine.state());
  }
}
