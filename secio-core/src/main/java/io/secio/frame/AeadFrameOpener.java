package io.secio.frame;

import io.secio.SecioException;
import io.secio.crypto.AeadCipher;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;

/**
 * v0.2 frames: verifies {@code ciphertext || tag} under the next counter nonce, so a replayed,
 * reordered or dropped frame fails. Dead after the first failure. Not thread-safe.
 */
final class AeadFrameOpener implements FrameOpener {
  private final AeadCipher aead;
  private final NonceCounter nonce;
  private boolean dead;

  AeadFrameOpener(AeadCipher aead, NonceCounter nonce) {
    this.aead = aead;
    this.nonce = nonce;
  }

  @Override
  public int overhead() {
    return aead.tagSizeInBytes();
  }

  @Override
  public void open(ByteBuffer body, ByteBuffer out) throws SecioException {
    if (dead) {
      throw new SecioException(SecioException.Reason.AUTHENTICATION_FAILED, "opener already failed");
    }
    if (body.remaining() < overhead()) {
      dead = true;
      throw new SecioException(SecioException.Reason.FRAME_TOO_SHORT, body.remaining() + " bytes");
    }
    byte[] n;
    try {
      n = nonce.next();
    } catch (SecioException e) {
      dead = true;
      throw e;
    }
    try {
      aead.open(n, body, out);
    } catch (GeneralSecurityException e) {
      dead = true;
      throw new SecioException(SecioException.Reason.AUTHENTICATION_FAILED);
    }
  }

  @Override
  public void destroy() {
    dead = true;
  }
}
