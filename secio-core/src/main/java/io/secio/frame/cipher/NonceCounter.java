package io.secio.frame.cipher;

import io.secio.protocol.SecioException;

/**
 * The 12-byte AEAD nonce of one direction (docs/PROTOCOL.md section 10): a little-endian counter over all 12 bytes
 * that starts at zero and is incremented before each use, so the first nonce is {@code 01 00 .. 00}.
 * It refuses to wrap: after {@code ff .. ff} it is exhausted. Not thread-safe.
 */
final class NonceCounter {
  static final int NONCE_SIZE_IN_BYTES = 12;

  private final byte[] nonce;
  private boolean exhausted;

  NonceCounter() {
    this(new byte[NONCE_SIZE_IN_BYTES]);
  }

  /** A counter whose last used value is {@code start} (tests start near the end). */
  NonceCounter(byte[] start) {
    if (start.length != NONCE_SIZE_IN_BYTES) {
      throw new IllegalArgumentException("nonce must be 12 bytes");
    }
    this.nonce = start.clone();
  }

  /**
   * Increments and returns the nonce to use now. The returned array is owned by this counter and
   * valid until the next call.
   */
  byte[] next() throws SecioException {
    if (exhausted) {
      throw new SecioException(SecioException.Reason.NONCE_EXHAUSTED);
    }
    for (int i = 0; i < NONCE_SIZE_IN_BYTES; i++) {
      if (++nonce[i] != 0) {
        return nonce;
      }
    }
    // Every byte carried: the counter wrapped to zero, which would reuse the first nonce.
    exhausted = true;
    throw new SecioException(SecioException.Reason.NONCE_EXHAUSTED);
  }
}
