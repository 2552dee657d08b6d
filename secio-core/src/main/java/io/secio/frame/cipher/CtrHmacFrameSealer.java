package io.secio.frame.cipher;

import io.secio.frame.FrameSealer;
import io.secio.protocol.SecioException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.Mac;

/**
 * v0.1 frames: {@code ciphertext || HMAC(macKey, ciphertext)}, the AES-CTR keystream continuing across
 * frames. Any failure while sealing destroys it: the keystream may have moved on without output, and
 * the peer would decrypt every later frame to garbage. Not thread-safe.
 */
final class CtrHmacFrameSealer implements FrameSealer {
  private Cipher ctr;
  private Mac mac;
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
      destroy();
      throw new SecioException(SecioException.Reason.UNAVAILABLE, "CTR seal failed", e);
    } catch (RuntimeException e) {
      destroy();
      throw e;
    }
    out.put(tag);
  }

  @Override
  public void destroy() {
    if (destroyed) {
      return;
    }
    destroyed = true;
    FrameCiphers.rekeyWithZeros(ctr, mac);
    ctr = null;
    mac = null;
    Arrays.fill(tag, (byte) 0);
  }

  /** The cipher objects still held, for tests that check {@link #destroy()} dropped them. */
  List<Object> keyHolders() {
    return FrameCiphers.nonNull(ctr, mac);
  }

  /** The array the last MAC was written to, for tests that check {@link #destroy()} zeroed it. */
  byte[] macBuffer() {
    return tag;
  }
}
