package io.secio.identity;

import java.security.SecureRandom;

/**
 * A node's long-term identity: a private key and its public key. Thread-safe. {@code toString} never
 * shows the private key.
 */
public interface IdentityKeyPair {

  KeyType type();

  IdentityPublicKey publicKey();

  /** Signs {@code message} per docs/PROTOCOL.md section 3 (secp256k1 signatures are low-S). */
  byte[] sign(byte[] message);

  /** The libp2p {@code PrivateKey} protobuf bytes. Treat as a secret. */
  byte[] toProtobuf();

  /** A fresh key of this type (RSA: 2048 bits; ECDSA: P-256). */
  static IdentityKeyPair generate(KeyType type, SecureRandom random) {
    return IdentityKeys.generate(type, random);
  }

  /**
   * Parses a libp2p {@code PrivateKey} protobuf (Ed25519 also in its legacy 96-byte form).
   *
   * @throws IllegalArgumentException if the bytes are not a valid private key of a supported type
   */
  static IdentityKeyPair fromProtobuf(byte[] encoded) {
    return IdentityKeys.privateKeyFromProtobuf(encoded);
  }
}
