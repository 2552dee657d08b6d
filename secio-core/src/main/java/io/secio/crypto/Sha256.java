package io.secio.crypto;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * SHA-256 of what must hash the same on every node, whatever its backend: peer ids (the multihash of
 * a public key), a key's fingerprint in messages, and the handshake's order of the two sides. Every
 * JDK has it, so the default JCA provider serves it; backends serve only what a connection seals,
 * exchanges and signs. Thread-safe: each call makes its own digest.
 */
public final class Sha256 {
  /** The size of a digest. */
  public static final int DIGEST_SIZE_IN_BYTES = 32;

  private Sha256() {}

  /** SHA-256 of the concatenation of {@code parts}. */
  public static byte[] digest(byte[]... parts) {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JDK", e);
    }
    for (byte[] part : parts) {
      digest.update(part);
    }
    return digest.digest();
  }
}
