package io.secio.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import org.junit.jupiter.api.Test;

/**
 * Which self-tested primitive each negotiated algorithm needs: a backend is asked for (and refuses)
 * exactly that one.
 */
class PrimitiveTest {

  @Test
  void eachAlgorithmNeedsItsOwnPrimitive() {
    assertEquals(Primitive.AES_GCM, Primitive.of(CipherAlgorithm.AES_128_GCM));
    assertEquals(Primitive.AES_GCM, Primitive.of(CipherAlgorithm.AES_256_GCM));
    assertEquals(Primitive.CHACHA20_POLY1305, Primitive.of(CipherAlgorithm.CHACHA20_POLY1305));
    assertEquals(Primitive.AES_CTR, Primitive.of(CipherAlgorithm.AES_128_CTR));
    assertEquals(Primitive.AES_CTR, Primitive.of(CipherAlgorithm.AES_256_CTR));
    assertEquals(Primitive.HMAC_SHA256, Primitive.of(HashAlgorithm.SHA256));
    assertEquals(Primitive.HMAC_SHA512, Primitive.of(HashAlgorithm.SHA512));
    assertEquals(Primitive.ECDH_P256, Primitive.of(ExchangeAlgorithm.P_256));
    assertEquals(Primitive.ECDH_P384, Primitive.of(ExchangeAlgorithm.P_384));
    assertEquals(Primitive.ECDH_P521, Primitive.of(ExchangeAlgorithm.P_521));
    assertEquals(Primitive.X25519, Primitive.of(ExchangeAlgorithm.X25519));
  }
}
