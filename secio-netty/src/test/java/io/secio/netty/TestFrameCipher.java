package io.secio.netty;

import io.secio.frame.FrameOpener;
import io.secio.frame.FrameSealer;
import io.secio.protocol.SecioException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * One direction of a v0.2 AES-128-GCM frame stream (docs/PROTOCOL.md section 10: 12-byte little-endian counter nonce
 * incremented before each frame, 16-byte tag, no associated data), on the JDK alone. It lets the codec
 * tests run without the handshake; the sealer and opener of one instance are the two ends of one
 * direction.
 */
final class TestFrameCipher {
  static final int TAG_SIZE_IN_BYTES = 16;

  private final SecretKeySpec key;
  final Sealer sealer = new Sealer();
  final Opener opener = new Opener();

  TestFrameCipher(byte seed) {
    byte[] k = new byte[16];
    java.util.Arrays.fill(k, seed);
    key = new SecretKeySpec(k, "AES");
  }

  private static void increment(byte[] nonce) {
    for (int i = 0; i < nonce.length; i++) {
      if (++nonce[i] != 0) {
        return;
      }
    }
  }

  final class Sealer implements FrameSealer {
    private final byte[] nonce = new byte[12];
    int framesSealed;
    boolean destroyed;

    @Override
    public int overhead() {
      return TAG_SIZE_IN_BYTES;
    }

    @Override
    public void seal(ByteBuffer plaintext, ByteBuffer out) throws SecioException {
      if (destroyed) {
        throw new IllegalStateException("destroyed");
      }
      increment(nonce);
      try {
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, nonce));
        c.doFinal(plaintext, out);
        framesSealed++;
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public void destroy() {
      destroyed = true;
    }
  }

  final class Opener implements FrameOpener {
    private final byte[] nonce = new byte[12];
    boolean dead;
    boolean destroyed;

    @Override
    public int overhead() {
      return TAG_SIZE_IN_BYTES;
    }

    @Override
    public void open(ByteBuffer body, ByteBuffer out) throws SecioException {
      if (dead || destroyed) {
        throw new SecioException(SecioException.Reason.AUTHENTICATION_FAILED, "opener is dead");
      }
      if (body.remaining() < TAG_SIZE_IN_BYTES) {
        dead = true;
        throw new SecioException(SecioException.Reason.FRAME_TOO_SHORT);
      }
      increment(nonce);
      try {
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, nonce));
        c.doFinal(body, out);
      } catch (AEADBadTagException e) {
        dead = true;
        throw new SecioException(SecioException.Reason.AUTHENTICATION_FAILED);
      } catch (GeneralSecurityException e) {
        dead = true;
        throw new IllegalStateException(e);
      }
    }

    @Override
    public void destroy() {
      destroyed = true;
    }
  }
}
