package io.secio.frame.cipher;

import io.secio.frame.FrameOpener;
import io.secio.protocol.SecioException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.Mac;

/**
 * v0.1 frames: checks {@code HMAC(macKey, ciphertext)} in constant time, and only then decrypts with the
 * continuing AES-CTR stream. The MAC covers the ciphertext only, so v0.1 cannot detect a replayed,
 * reordered or dropped frame (docs/PROTOCOL.md section 16). Dead, and destroyed, after the first failure of any
 * kind. Not thread-safe.
 */
final class CtrHmacFrameOpener implements FrameOpener {
  private Cipher ctr;
  private Mac mac;
  private final byte[] expected;
  private final byte[] received;
  private boolean dead;

  CtrHmacFrameOpener(Cipher ctr, Mac mac) {
    this.ctr = ctr;
    this.mac = mac;
    this.expected = new byte[mac.getMacLength()];
    this.received = new byte[mac.getMacLength()];
  }

  @Override
  public int overhead() {
    return expected.length;
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
    int macStart = body.limit() - overhead();
    ByteBuffer ciphertext = body.duplicate();
    ciphertext.limit(macStart);
    ByteBuffer tag = body.duplicate();
    tag.position(macStart);
    tag.get(received);
    try {
      mac.update(ciphertext.duplicate());
      mac.doFinal(expected, 0);
      if (!MessageDigest.isEqual(expected, received)) {
        destroy();
        throw new SecioException(SecioException.Reason.AUTHENTICATION_FAILED);
      }
      ctr.update(ciphertext, out);
    } catch (SecioException e) {
      throw e;
    } catch (GeneralSecurityException e) {
      destroy();
      throw new SecioException(SecioException.Reason.UNAVAILABLE, "CTR open failed", e);
    } catch (RuntimeException e) {
      destroy();
      throw e;
    }
    body.position(body.limit());
  }

  @Override
  public void destroy() {
    dead = true;
    if (ctr == null) {
      return;
    }
    FrameCiphers.rekeyWithZeros(ctr, mac);
    ctr = null;
    mac = null;
    Arrays.fill(expected, (byte) 0);
    Arrays.fill(received, (byte) 0);
  }

  /** The cipher objects still held, for tests that check {@link #destroy()} dropped them. */
  List<Object> keyHolders() {
    return FrameCiphers.nonNull(ctr, mac);
  }

  /**
   * The arrays the last MACs (computed and received) were written to, for tests that check {@link
   * #destroy()} zeroed them: after a failed frame the computed one is a valid MAC the peer never sent.
   */
  List<byte[]> macBuffers() {
    return List.of(expected, received);
  }
}
