package io.secio.protocol;

import java.util.Optional;

/**
 * The frame ciphers secio negotiates (docs/PROTOCOL.md sections 6, 8 and 10). Twofish, Blowfish and NULL are
 * deliberately absent: they are never offered and never accepted.
 */
public enum CipherAlgorithm {
  /** AES-128 in GCM mode with a 16-byte tag: a v0.2 AEAD cipher, preferred first. */
  AES_128_GCM("AES-128-GCM", 16, 12, ProtocolVersion.V0_2),
  /** AES-256 in GCM mode with a 16-byte tag: a v0.2 AEAD cipher. */
  AES_256_GCM("AES-256-GCM", 32, 12, ProtocolVersion.V0_2),
  /**
   * ChaCha20-Poly1305 (RFC 8439): a v0.2 AEAD cipher; its wire name is {@code CHACHA20_POLY1305},
   * with underscores, as tentacle sends it.
   */
  CHACHA20_POLY1305("CHACHA20_POLY1305", 32, 12, ProtocolVersion.V0_2),
  /**
   * AES-256 in CTR mode, framed with an HMAC: v0.1, for older libp2p peers; wire name {@code
   * AES-256}.
   */
  AES_256_CTR("AES-256", 32, 16, ProtocolVersion.V0_1),
  /**
   * AES-128 in CTR mode, framed with an HMAC: v0.1, for older libp2p peers; wire name {@code
   * AES-128}.
   */
  AES_128_CTR("AES-128", 16, 16, ProtocolVersion.V0_1);

  /** AEAD tag length in every v0.2 cipher. */
  public static final int TAG_SIZE_IN_BYTES = 16;

  private final String wireName;
  private final int keySizeInBytes;
  private final int ivSizeInBytes;
  private final ProtocolVersion version;

  CipherAlgorithm(String wireName, int keySizeInBytes, int ivSizeInBytes, ProtocolVersion version) {
    this.wireName = wireName;
    this.keySizeInBytes = keySizeInBytes;
    this.ivSizeInBytes = ivSizeInBytes;
    this.version = version;
  }

  /** The name this project sends in a Propose. */
  public String wireName() {
    return wireName;
  }

  /** The key length, in bytes, that key stretching derives for this cipher. */
  public int keySizeInBytes() {
    return keySizeInBytes;
  }

  /** The iv size used in key stretching (for AEAD ciphers the derived iv is not used). */
  public int ivSizeInBytes() {
    return ivSizeInBytes;
  }

  /** The framing this cipher implies. */
  public ProtocolVersion version() {
    return version;
  }

  /** Whether this is a v0.2 AEAD cipher (its frames carry a tag, not an HMAC). */
  public boolean isAead() {
    return version == ProtocolVersion.V0_2;
  }

  /**
   * The cipher with this exact, case-sensitive wire name; {@code AES-128-CTR} and {@code AES-256-CTR}
   * are accepted as aliases of {@code AES-128} and {@code AES-256}.
   */
  public static Optional<CipherAlgorithm> fromWireName(String name) {
    if ("AES-128-CTR".equals(name)) {
      return Optional.of(AES_128_CTR);
    }
    if ("AES-256-CTR".equals(name)) {
      return Optional.of(AES_256_CTR);
    }
    for (CipherAlgorithm a : values()) {
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
