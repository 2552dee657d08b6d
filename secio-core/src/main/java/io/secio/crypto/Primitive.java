package io.secio.crypto;

import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;

/**
 * One primitive a {@link CryptoBackend} may offer: frame ciphers and MACs, key exchanges, and identity
 * signatures. Each is self-tested on its own.
 */
public enum Primitive {
  AES_GCM,
  CHACHA20_POLY1305,
  AES_CTR,
  HMAC_SHA256,
  HMAC_SHA512,
  ECDH_P256,
  ECDH_P384,
  ECDH_P521,
  X25519,
  /** Ed25519 identity signatures (RFC 8032), verified by the cofactored equation on every backend. */
  ED25519,
  /** ECDSA identity signatures on P-256 over SHA-256, DER-encoded. */
  ECDSA_P256,
  /** ECDSA identity signatures on secp256k1 over SHA-256, DER-encoded, deterministic (RFC 6979). */
  ECDSA_SECP256K1,
  /** RSASSA-PKCS1-v1_5 identity signatures with SHA-256. */
  RSA_SHA256;

  /** Whether this is an identity signature primitive (signed with {@link CryptoBackend#newSigner}). */
  public boolean isSignature() {
    return compareTo(ED25519) >= 0;
  }

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
