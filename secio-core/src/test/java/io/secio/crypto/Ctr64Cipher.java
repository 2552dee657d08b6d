package io.secio.crypto;

import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.engines.AESEngine;
import org.bouncycastle.crypto.params.KeyParameter;

/**
 * A deliberately faulty AES-CTR for tests: its counter is only the low 64 bits of the iv and wraps
 * there instead of carrying into the high half, as CTR modes with a 64-bit nonce do. It matches
 * correct CTR everywhere except across that carry.
 */
final class Ctr64Cipher extends Cipher {
  private static final Provider TEST_PROVIDER = new Provider("Ctr64", "1", "faulty CTR for tests") {
    private static final long serialVersionUID = 1L;
  };

  private Ctr64Cipher() {
    super(new Spi(), TEST_PROVIDER, "AES/CTR64/NoPadding"); // Cipher refuses a null provider
  }

  /** Initialised for encryption with {@code key} and the initial counter block {@code iv}. */
  static Cipher of(byte[] key, byte[] iv) throws GeneralSecurityException {
    Cipher c = new Ctr64Cipher();
    c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(iv));
    return c;
  }

  private static final class Spi extends FaultyCipherSpi {
    private final AESEngine aes = new AESEngine();
    private final byte[] keystream = new byte[16];
    private byte[] counter;
    private int used = 16;

    private byte next() {
      if (used == 16) {
        aes.processBlock(counter, 0, keystream, 0);
        for (int i = 15; i >= 8 && ++counter[i] == 0; i--) {
          // carry stops at byte 8: the high half never changes
        }
        used = 0;
      }
      return keystream[used++];
    }

    @Override
    protected int engineUpdate(byte[] in, int off, int len, byte[] out, int outOff) {
      for (int i = 0; i < len; i++) {
        out[outOff + i] = (byte) (in[off + i] ^ next());
      }
      return len;
    }

    @Override
    protected byte[] engineUpdate(byte[] in, int off, int len) {
      byte[] out = new byte[len];
      engineUpdate(in, off, len, out, 0);
      return out;
    }

    @Override
    protected byte[] engineDoFinal(byte[] in, int off, int len) {
      return engineUpdate(in, off, len);
    }

    @Override
    protected int engineDoFinal(byte[] in, int off, int len, byte[] out, int outOff) {
      return engineUpdate(in, off, len, out, outOff);
    }

    @Override
    protected void engineInit(int opmode, Key key, AlgorithmParameterSpec p, SecureRandom r) {
      aes.init(true, new KeyParameter(key.getEncoded()));
      counter = ((IvParameterSpec) p).getIV();
      used = 16;
    }

    @Override
    protected void engineInit(int opmode, Key key, SecureRandom random) {
      throw new UnsupportedOperationException("needs an iv");
    }

    @Override
    protected void engineInit(int opmode, Key key, AlgorithmParameters p, SecureRandom r) {
      throw new UnsupportedOperationException("needs an IvParameterSpec");
    }
  }
}
