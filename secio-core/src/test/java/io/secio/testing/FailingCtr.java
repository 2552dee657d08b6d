package io.secio.testing;

import java.nio.ByteBuffer;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import java.util.function.Supplier;
import javax.crypto.BadPaddingException;
import javax.crypto.Cipher;
import javax.crypto.CipherSpi;
import javax.crypto.IllegalBlockSizeException;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * A real AES-CTR {@code Cipher} behind a spi that throws, from every update, the exception its switch
 * holds (an unchecked one, or a {@code ShortBufferException} where the update may throw it). {@code Cipher} is a class, so the only
 * way to put something in front of a provider's is JCA's own: a {@code CipherSpi}. Not thread-safe.
 */
final class FailingCtr extends CipherSpi {
  private static final Provider PROVIDER =
      new Provider("SecioTestFailingCtr", "1", "AES-CTR that fails on command") {};

  private final Cipher real;
  private final Supplier<Exception> failure;

  private FailingCtr(Cipher real, Supplier<Exception> failure) {
    this.real = real;
    this.failure = failure;
  }

  /** {@code real}, keyed with {@code key} and {@code iv}, in front of the switch {@code failure}. */
  static Cipher wrap(Cipher real, byte[] key, byte[] iv, Supplier<Exception> failure)
      throws GeneralSecurityException {
    Cipher wrapped = new Cipher(new FailingCtr(real, failure), PROVIDER, real.getAlgorithm()) {};
    // A Cipher refuses updates until its own init; this keys the real one again as the backend did.
    wrapped.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(iv));
    return wrapped;
  }

  private void check() throws ShortBufferException {
    Exception e = failure.get();
    if (e instanceof ShortBufferException checked) {
      throw checked;
    }
    if (e != null) {
      throw (RuntimeException) e;
    }
  }

  @Override
  protected int engineUpdate(ByteBuffer input, ByteBuffer output) throws ShortBufferException {
    check();
    return real.update(input, output);
  }

  @Override
  protected byte[] engineUpdate(byte[] input, int offset, int length) {
    // This form may not throw a checked exception: only an unchecked failure applies here.
    if (failure.get() instanceof RuntimeException e) {
      throw e;
    }
    return real.update(input, offset, length);
  }

  @Override
  protected int engineUpdate(byte[] input, int offset, int length, byte[] output, int outputOffset)
      throws ShortBufferException {
    check();
    return real.update(input, offset, length, output, outputOffset);
  }

  @Override
  protected byte[] engineDoFinal(byte[] input, int offset, int length)
      throws IllegalBlockSizeException, BadPaddingException {
    return real.doFinal(input, offset, length);
  }

  @Override
  protected int engineDoFinal(byte[] input, int offset, int length, byte[] output, int outputOffset)
      throws ShortBufferException, IllegalBlockSizeException, BadPaddingException {
    return real.doFinal(input, offset, length, output, outputOffset);
  }

  @Override
  protected void engineInit(int mode, Key key, AlgorithmParameterSpec params, SecureRandom random)
      throws InvalidKeyException, InvalidAlgorithmParameterException {
    real.init(mode, key, params, random);
  }

  @Override
  protected void engineInit(int mode, Key key, AlgorithmParameters params, SecureRandom random)
      throws InvalidKeyException, InvalidAlgorithmParameterException {
    real.init(mode, key, params, random);
  }

  @Override
  protected void engineInit(int mode, Key key, SecureRandom random)
      throws InvalidKeyException {
    real.init(mode, key, random);
  }

  @Override
  protected void engineSetMode(String mode) {
    // Fixed by the real cipher.
  }

  @Override
  protected void engineSetPadding(String padding) {
    // Fixed by the real cipher.
  }

  @Override
  protected int engineGetBlockSize() {
    return real.getBlockSize();
  }

  @Override
  protected int engineGetOutputSize(int inputLength) {
    return real.getOutputSize(inputLength);
  }

  @Override
  protected byte[] engineGetIV() {
    return real.getIV();
  }

  @Override
  protected AlgorithmParameters engineGetParameters() {
    return real.getParameters();
  }
}
