package io.secio.identity;

import java.util.Optional;

/** libp2p identity key types, with their protobuf numbers (docs/PROTOCOL.md section 3). */
public enum KeyType {
  RSA(0),
  ED25519(1),
  SECP256K1(2),
  ECDSA(3);

  private final int number;

  KeyType(int number) {
    this.number = number;
  }

  /** The {@code KeyType} enum value in the libp2p protobuf. */
  public int number() {
    return number;
  }

  public static Optional<KeyType> fromNumber(int number) {
    for (KeyType t : values()) {
      if (t.number == number) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }
}
