package io.secio.frame;

import io.secio.protocol.SecioException;
import java.nio.ByteBuffer;

/**
 * Verifies and decrypts frame bodies for one direction of an established session (docs/PROTOCOL.md section 10).
 * After any failure the opener is dead: every later call fails too, so nothing after a bad frame is
 * delivered. Not thread-safe.
 */
public interface FrameOpener {

  /** Bytes a body has beyond its plaintext: the MAC or tag size. */
  int overhead();

  /**
   * Verifies the body (all remaining bytes of {@code body}) and writes its plaintext to {@code out},
   * which needs {@code body.remaining() - overhead()} bytes of room. Advances both positions. {@code
   * out} may start at the very byte where {@code body} starts (opening in place, every backend
   * supports it); any other overlap is not allowed. A body that does not verify leaves no plaintext in
   * {@code out}.
   *
   * @throws SecioException {@link SecioException.Reason#FRAME_TOO_SHORT} if the body is shorter than
   *     the MAC or tag, {@link SecioException.Reason#AUTHENTICATION_FAILED} if it does not verify
   */
  void open(ByteBuffer body, ByteBuffer out) throws SecioException;

  /** Convenience: opens a whole body into a new array. */
  default byte[] open(byte[] body) throws SecioException {
    if (body.length < overhead()) {
      open(ByteBuffer.wrap(body), ByteBuffer.allocate(0));
    }
    ByteBuffer out = ByteBuffer.allocate(body.length - overhead());
    open(ByteBuffer.wrap(body), out);
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
