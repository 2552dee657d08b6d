package io.secio.crypto;

import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import javax.crypto.Cipher;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.IvParameterSpec;

/**
 * A deliberately faulty AES-CTR for tests: a correct cipher underneath writes the right bytes, but
 * {@code update} into a caller's array reports one byte fewer than it wrote. A frame that trusts the
 * count would lose its last byte.
 */
final class MiscountingCtr extends Cipher {
  private static final Provider TEST_PROVIDER = new Provider("Miscounting", "1", "faulty CTR") {
    private static final long serialVersionUID = 1L;
  };

  private MiscountingCtr(Cipher real) {
    super(new Spi(real), TEST_PROVIDER, "AES/CTR/NoPadding");
  }

  /** Wraps {@code real}, an initialised AES-CTR cipher. */
  static Cipher around(Cipher real) throws GeneralSecurityException {
    Cipher c = new MiscountingCtr(real);
    // Only marks this wrapper initialised; the key and iv are already in real.
    c.init(Cipher.ENCRYPT_MODE, new DestroyableKey(new byte[16], "AES"),
        new IvParameterSpec(new byte[16]));
    return c;
  }

  private static final class Spi extends FaultyCipherSpi {
    private final Cipher real;

    Spi(Cipher real) {
      this.real = real;
    }

    @Override
    protected int engineUpdate(byte[] in, int off, int len, byte[] out, int outOff)
        throws ShortBufferException {
      return real.update(in, off, len, out, outOff) - 1;
    }

    @Override
    protected byte[] engineUpdate(byte[] in, int off, int len) {
      return real.update(in, off, len);
    }

    @Override
    protected byte[] engineDoFinal(byte[] in, int off, int len) {
      return engineUpdate(in, off, len);
    }

    @Override
    protected int engineDoFinal(byte[] in, int off, int len, byte[] out, int outOff)
        throws ShortBufferException {
      return engineUpdate(in, off, len, out, outOff);
    }

    @Override
    protected void engineInit(int opmode, Key key, AlgorithmParameterSpec p, SecureRandom r) {}

    @Override
    protected void engineInit(int opmode, Key key, SecureRandom random) {}

    @Override
    protected void engineInit(int opmode, Key key, AlgorithmParameters p, SecureRandom r) {}
  }
}
