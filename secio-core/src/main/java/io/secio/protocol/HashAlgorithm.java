package io.secio.protocol;

import java.util.Optional;

/** The hashes secio negotiates, used for key stretching and the v0.1 frame MAC. */
public enum HashAlgorithm {
  /** SHA-256: key stretching and, in v0.1, the frame HMAC. */
  SHA256("SHA256", 32, "HmacSHA256"),
  /** SHA-512: key stretching and, in v0.1, the frame HMAC. */
  SHA512("SHA512", 64, "HmacSHA512");

  private final String wireName;
  private final int macSizeInBytes;
  private final String jcaHmacName;

  HashAlgorithm(String wireName, int macSizeInBytes, String jcaHmacName) {
    this.wireName = wireName;
    this.macSizeInBytes = macSizeInBytes;
    this.jcaHmacName = jcaHmacName;
  }

  /** The name this project sends in a Propose. */
  public String wireName() {
    return wireName;
  }

  /** Length of an HMAC with this hash. */
  public int macSizeInBytes() {
    return macSizeInBytes;
  }

  /** The JCA name of HMAC with this hash. */
  public String jcaHmacName() {
    return jcaHmacName;
  }

  /** The hash with this exact, case-sensitive wire name. */
  public static Optional<HashAlgorithm> fromWireName(String name) {
    for (HashAlgorithm a : values()) {
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
