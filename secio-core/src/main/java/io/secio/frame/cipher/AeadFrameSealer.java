package io.secio.frame.cipher;

import io.secio.crypto.AeadCipher;
import io.secio.frame.FrameSealer;
import io.secio.protocol.SecioException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.List;

/** v0.2 frames: {@code ciphertext || tag} under the next counter nonce. Not thread-safe. */
final class AeadFrameSealer implements FrameSealer {
  private final int overhead;
  private final NonceCounter nonce;
  private AeadCipher aead;
  private boolean destroyed;

  AeadFrameSealer(AeadCipher aead, NonceCounter nonce) {
    this.aead = aead;
    this.nonce = nonce;
    this.overhead = aead.tagSizeInBytes();
  }

  @Override
  public int overhead() {
    return overhead;
  }

  @Override
  public void seal(ByteBuffer plaintext, ByteBuffer out) throws SecioException {
    if (destroyed) {
      throw new IllegalStateException("sealer destroyed");
    }
    try {
      aead.seal(nonce.next(), plaintext, out);
    } catch (GeneralSecurityException e) {
      // A seal failure after the nonce moved on leaves the peer out of step: the session is over.
      destroy();
      throw e instanceof SecioException secio
          ? secio
          : new SecioException(SecioException.Reason.UNAVAILABLE, "AEAD seal failed", e);
    } catch (RuntimeException e) {
      destroy();
      throw e;
    }
  }

  @Override
  public void destroy() {
    destroyed = true;
    if (aead != null) {
      aead.destroy();
      aead = null;
    }
  }

  /** The cipher object still held, for tests that check {@link #destroy()} dropped it. */
  List<Object> keyHolders() {
    return FrameCiphers.nonNull(aead);
  }
}
