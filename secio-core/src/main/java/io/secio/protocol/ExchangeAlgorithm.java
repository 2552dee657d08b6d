package io.secio.protocol;

import java.util.Optional;

/** The ephemeral key exchanges secio negotiates (docs/PROTOCOL.md sections 6 and 7). */
public enum ExchangeAlgorithm {
  /**
   * ECDH on NIST P-256, the ephemeral key an uncompressed 65-byte point; every libp2p peer offers
   * it.
   */
  P_256("P-256", 65, 32),
  /** ECDH on NIST P-384, an uncompressed 97-byte point. */
  P_384("P-384", 97, 48),
  /** ECDH on NIST P-521, an uncompressed 133-byte point. */
  P_521("P-521", 133, 66),
  /** A v0.2 extension, offered last. */
  X25519("X25519", 32, 32);

  private final String wireName;
  private final int publicKeySizeInBytes;
  private final int sharedSecretSizeInBytes;

  ExchangeAlgorithm(String wireName, int publicKeySizeInBytes, int sharedSecretSizeInBytes) {
    this.wireName = wireName;
    this.publicKeySizeInBytes = publicKeySizeInBytes;
    this.sharedSecretSizeInBytes = sharedSecretSizeInBytes;
  }

  /** The name in a Propose. */
  public String wireName() {
    return wireName;
  }

  /** Length of {@code epubkey}: an uncompressed point for NIST curves, 32 raw bytes for X25519. */
  public int publicKeySizeInBytes() {
    return publicKeySizeInBytes;
  }

  /** Length of the shared secret, which is never stripped of leading zeros. */
  public int sharedSecretSizeInBytes() {
    return sharedSecretSizeInBytes;
  }

  /** Size of one coordinate, or of the X25519 key. */
  public int fieldSizeInBytes() {
    return sharedSecretSizeInBytes;
  }

  /** The algorithm with this exact, case-sensitive wire name. */
  public static Optional<ExchangeAlgorithm> fromWireName(String name) {
    for (ExchangeAlgorithm a : values()) {
      if (a.wireName.equals(name)) {
        return Optional.of(a);
      }
    }
    return Optional.empty();
  }

  /** The wire name, as Propose lists, logs and docs spell it ({@link #wireName()}). */
  @Override
  public String toString() {
    return wireName;
  }
}
