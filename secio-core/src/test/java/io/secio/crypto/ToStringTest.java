package io.secio.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the crypto objects say in a log line: the algorithm and the backend, never a key byte.
 */
class ToStringTest {
  private static final JcaProfile JDK = JcaProfile.jdk();

  @Test
  void anAeadNamesItsPrimitiveAndProviderButNotItsKey() throws Exception {
    byte[] key = new byte[16];
    Arrays.fill(key, (byte) 0x5a);

    String s = new JcaAead(JDK, CipherAlgorithm.AES_128_GCM, key).toString();

    assertEquals("JcaAead{AES_GCM, jdk}", s);
  }

  @Test
  void keyPairsNameTheirCurveAndProvider() throws Exception {
    byte[] scalar = new byte[32];
    scalar[31] = 7;
    EphemeralKeyPair nist =
        new JcaPrimitives(JDK).ephemeralFromPrivate(ExchangeAlgorithm.P_256, scalar);
    EphemeralKeyPair x25519 =
        new JcaPrimitives(JDK).ephemeralFromPrivate(ExchangeAlgorithm.X25519, scalar);

    assertEquals("EcdhKeyPair{" + ExchangeAlgorithm.P_256.wireName() + ", jdk}", nist.toString());
    assertEquals("X25519KeyPair{jdk}", x25519.toString());
  }

  @Test
  void backendsAndProfilesSayTheirNames() {
    assertEquals("jdk", JDK.toString());
    assertEquals("JcaPrimitives{jdk}", new JcaPrimitives(JDK).toString());
    assertEquals("jdk", new JcaBackend(JDK).toString());
  }

  @Test
  void theAutoBackendListsTheChoiceForEveryPrimitive() {
    CryptoBackend jdk = new JcaBackend(JDK);
    CryptoBackend auto = CompositeBackend.choose(Map.of("jdk", jdk));

    assertEquals("auto{AES_GCM=jdk, CHACHA20_POLY1305=jdk, AES_CTR=jdk, HMAC_SHA256=jdk,"
        + " HMAC_SHA512=jdk, ECDH_P256=jdk, ECDH_P384=jdk, ECDH_P521=jdk, X25519=jdk,"
        + " ED25519=jdk, ECDSA_P256=jdk, ECDSA_SECP256K1=jdk, RSA_SHA256=jdk}",
        auto.toString());
    assertEquals("auto{AES_GCM=none, CHACHA20_POLY1305=none, AES_CTR=none, HMAC_SHA256=none,"
        + " HMAC_SHA512=none, ECDH_P256=none, ECDH_P384=none, ECDH_P521=none, X25519=none,"
        + " ED25519=none, ECDSA_P256=none, ECDSA_SECP256K1=none, RSA_SHA256=none}",
        CompositeBackend.choose(Map.of()).toString());
  }
}
