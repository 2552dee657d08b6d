package io.secio.crypto;

import io.secio.CipherAlgorithm;
import io.secio.ExchangeAlgorithm;
import io.secio.HashAlgorithm;

/** One primitive a {@link CryptoBackend} may offer; each is self-tested on its own. */
public enum Primitive {
  AES_GCM,
  CHACHA20_POLY1305,
  AES_CTR,
  HMAC_SHA256,
  HMAC_SHA512,
  ECDH_P256,
  ECDH_P384,
  ECDH_P521,
  X25519;

  /** The primitive that frames with this cipher use for encryption. */
  public static Primitive of(CipherAlgorithm cipher) {
    switch (cipher) {
      case AES_128_GCM:
      case AES_256_GCM:
        return AES_GCM;
      case CHACHA20_POLY1305:
        return CHACHA20_POLY1305;
      case AES_128_CTR:
      case AES_256_CTR:
        return AES_CTR;
      default:
        throw new AssertionError(cipher);
    }
  }

  /** The HMAC primitive with this hash. */
  public static Primitive of(HashAlgorithm hash) {
    return hash == HashAlgorithm.SHA256 ? HMAC_SHA256 : HMAC_SHA512;
  }

  /** The key agreement primitive of this exchange. */
  public static Primitive of(ExchangeAlgorithm exchange) {
    switch (exchange) {
      case P_256:
        return ECDH_P256;
      case P_384:
        return ECDH_P384;
      case P_521:
        return ECDH_P521;
      case X25519:
        return X25519;
      default:
        throw new AssertionError(exchange);
    }
  }
}
