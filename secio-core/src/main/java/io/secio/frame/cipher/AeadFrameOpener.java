package io.secio.frame.cipher;

import io.secio.crypto.AeadCipher;
import io.secio.frame.FrameOpener;
import io.secio.protocol.SecioException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.List;

/**
 * v0.2 frames: verifies {@code ciphertext || tag} under the next counter nonce, so a replayed,
 * reordered or dropped frame fails. Dead, and destroyed, after the first failure of any kind. Not
 * thread-safe.
 */
final class AeadFrameOpener implements FrameOpener {
  private final int overhead;
  private final NonceCounter nonce;
  private AeadCipher aead;
  private boolean dead;

  AeadFrameOpener(AeadCipher aead, NonceCounter nonce) {
    this.aead = aead;
    this.nonce = nonce;
    this.overhead = aead.tagSizeInBytes();
  }

  @Override
  public int overhead() {
    return overhead;
  }

  @Override
  public void open(ByteBuffer body, ByteBuffer out) throws SecioException {
    if (dead) {
      throw new SecioException(SecioException.Reason.AUTHENTICATION_FAILED, "opener already failed");
    }
    if (body.remaining() < overhead()) {
      destroy();
      throw new SecioException(SecioException.Reason.FRAME_TOO_SHORT, body.remaining() + " bytes");
    }
    try {
      aead.open(nonce.next(), body, out);
    } catch (SecioException e) {
      destroy();
      throw e;
    } catch (GeneralSecurityException e) {
      destroy();
      throw new SecioException(SecioException.Reason.AUTHENTICATION_FAILED);
    } catch (RuntimeException e) {
      destroy();
      throw e;
    }
  }

  @Override
  public void destroy() {
    dead = true;
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
