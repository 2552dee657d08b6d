package io.secio.frame;

import io.secio.SecioException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.Mac;

/**
 * v0.1 frames: {@code ciphertext || HMAC(macKey, ciphertext)}, the AES-CTR keystream continuing across
 * frames. Not thread-safe.
 */
final class CtrHmacFrameSealer implements FrameSealer {
  private final Cipher ctr;
  private final Mac mac;
  private final byte[] tag;
  private boolean destroyed;

  CtrHmacFrameSealer(Cipher ctr, Mac mac) {
    this.ctr = ctr;
    this.mac = mac;
    this.tag = new byte[mac.getMacLength()];
  }

  @Override
  public int overhead() {
    return tag.length;
  }

  @Override
  public void seal(ByteBuffer plaintext, ByteBuffer out) throws SecioException {
    if (destroyed) {
      throw new IllegalStateException("sealer destroyed");
    }
    int start = out.position();
    try {
      ctr.update(plaintext, out);
      ByteBuffer ciphertext = out.duplicate();
      ciphertext.flip().position(start);
      mac.update(ciphertext);
      mac.doFinal(tag, 0);
    } catch (GeneralSecurityException e) {
      destroyed = true;
      throw new SecioException(SecioException.Reason.UNAVAILABLE, "CTR seal failed", e);
    }
    out.put(tag);
  }

  @Override
  public void destroy() {
    destroyed = true;
  }
}
