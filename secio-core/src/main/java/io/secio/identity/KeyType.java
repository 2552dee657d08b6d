package io.secio.identity;

import java.util.Optional;

/** libp2p identity key types, with their protobuf numbers (docs/PROTOCOL.md section 3). */
public enum KeyType {
  /** RSA, 2048 to 8192 bits, PKCS#1 v1.5 signatures with SHA-256 (protobuf number 0). */
  RSA(0),
  /** Ed25519 (protobuf number 1), the usual libp2p identity. */
  ED25519(1),
  /**
   * secp256k1 ECDSA with low-S signatures over SHA-256 (protobuf number 2); the only type
   * tentacle's dialect carries.
   */
  SECP256K1(2),
  /** ECDSA on P-256 with SHA-256 (protobuf number 3). */
  ECDSA(3);

  private final int number;

  KeyType(int number) {
    this.number = number;
  }

  /** The {@code KeyType} enum value in the libp2p protobuf. */
  public int number() {
    return number;
  }

  /**
   * The type with this protobuf {@code KeyType} number, or empty for a number libp2p does not
   * define.
   */
  public static Optional<KeyType> fromNumber(int number) {
    for (KeyType t : values()) {
      if (t.number == number) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }
}
