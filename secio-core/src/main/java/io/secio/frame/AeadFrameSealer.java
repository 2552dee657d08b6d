package io.secio.frame;

import io.secio.SecioException;
import io.secio.crypto.AeadCipher;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;

/** v0.2 frames: {@code ciphertext || tag} under the next counter nonce. Not thread-safe. */
final class AeadFrameSealer implements FrameSealer {
  private final AeadCipher aead;
  private final NonceCounter nonce;
  private boolean destroyed;

  AeadFrameSealer(AeadCipher aead, NonceCounter nonce) {
    this.aead = aead;
    this.nonce = nonce;
  }

  @Override
  public int overhead() {
    return aead.tagSizeInBytes();
  }

  @Override
  public void seal(ByteBuffer plaintext, ByteBuffer out) throws SecioException {
    if (destroyed) {
      throw new IllegalStateException("sealer destroyed");
    }
    byte[] n = nonce.next();
    try {
      aead.seal(n, plaintext, out);
    } catch (GeneralSecurityException e) {
      // A seal failure after the nonce moved on leaves the peer out of step: the session is over.
      destroyed = true;
      throw new SecioException(SecioException.Reason.UNAVAILABLE, "AEAD seal failed", e);
    }
  }

  @Override
  public void destroy() {
    destroyed = true;
  }
}
