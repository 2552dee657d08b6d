package io.secio.crypto;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;

/**
 * An AEAD keyed for one direction: seal and open with a caller-supplied 12-byte nonce and no
 * associated data. The caller guarantees that a nonce is never used twice for sealing.
 *
 * <p>Not thread-safe.
 */
public interface AeadCipher {

  /** Tag length in bytes (16 for every v0.2 cipher). */
  int tagSizeInBytes();

  /**
   * Encrypts all remaining bytes of {@code plaintext} and writes {@code ciphertext || tag} to
   * {@code out}, advancing both buffers' positions. {@code out} needs {@code plaintext.remaining() +
   * tagSizeInBytes()} bytes of room and must not overlap {@code plaintext} unless the backend allows it.
   */
  void seal(byte[] nonce, ByteBuffer plaintext, ByteBuffer out) throws GeneralSecurityException;

  /**
   * Verifies and decrypts all remaining bytes of {@code ciphertextAndTag} into {@code out}. On a bad
   * tag it throws {@link javax.crypto.AEADBadTagException} and writes no plaintext that the caller
   * may use.
   */
  void open(byte[] nonce, ByteBuffer ciphertextAndTag, ByteBuffer out) throws GeneralSecurityException;

  /**
   * Zeroes the key bytes this object owns, re-keys the provider's cipher with a zero key where the
   * provider allows, and drops it; later calls throw {@link IllegalStateException}. Copies a JCA
   * provider made internally cannot be reached and are left to it and the garbage collector.
   */
  void destroy();
}
