package io.secio.frame;

import io.secio.protocol.SecioException;
import java.nio.ByteBuffer;

/**
 * Encrypts frame bodies for one direction of an established session (docs/PROTOCOL.md section 10). Each call
 * consumes one nonce (AEAD) or advances the keystream (CTR): the caller must emit every frame it seals,
 * in order. Not thread-safe.
 */
public interface FrameSealer {

  /** Bytes a body has beyond its plaintext: the MAC or tag size. */
  int overhead();

  /**
   * Writes the frame body for all remaining bytes of {@code plaintext} to {@code out}: {@code ciphertext
   * || MAC} or {@code ciphertext || tag}. {@code out} needs {@code plaintext.remaining() + overhead()}
   * bytes of room. Advances both positions. {@code out} may start at the very byte where {@code
   * plaintext} starts (sealing in place, every backend supports it); any other overlap is not allowed.
   *
   * @throws SecioException {@link SecioException.Reason#NONCE_EXHAUSTED} when the nonce would wrap
   */
  void seal(ByteBuffer plaintext, ByteBuffer out) throws SecioException;

  /** Convenience: seals a whole array into a new array. */
  default byte[] seal(byte[] plaintext) throws SecioException {
    ByteBuffer out = ByteBuffer.allocate(plaintext.length + overhead());
    seal(ByteBuffer.wrap(plaintext), out);
    return out.array();
  }

  /**
   * Destroys the keys; later calls fail. Zeroes every key array this library owns (AEAD keys; the
   * CTR and MAC keys were zeroed once the JCA objects were keyed), re-keys the JCA {@code Cipher} and
   * {@code Mac} with zero keys where the provider allows, and drops them. Copies a JCA provider made
   * inside those objects cannot be wiped from here: they live until the objects are collected (for
   * Conscrypt, native BoringSSL contexts freed by its finalizers).
   */
  void destroy();
}
