package io.secio.crypto;

import java.security.AlgorithmParameters;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.InvalidParameterSpecException;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.CipherSpi;
import javax.crypto.NoSuchPaddingException;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.IvParameterSpec;
import org.bouncycastle.crypto.engines.AESEngine;
import org.bouncycastle.crypto.modes.SICBlockCipher;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.crypto.params.ParametersWithIV;

/**
 * AES-CTR from Bouncy Castle's lightweight {@link SICBlockCipher}, as a {@link Cipher}. Bouncy
 * Castle's own JCA "AES/CTR/NoPadding" holds back a trailing partial block until the next call, but a
 * secio frame needs all of its ciphertext at once. The 16-byte iv is the whole 128-bit big-endian
 * counter, which carries across all 128 bits and wraps to zero.
 *
 * <p>{@code update} continues the keystream; {@code doFinal} ends the stream and rewinds it to the
 * iv, as any JCA cipher does. Encryption and decryption are the same operation. Not thread-safe.
 */
final class BcCtrCipher extends Cipher {
  static final String TRANSFORMATION = "AES/CTR/NoPadding";
  private static final int BLOCK_SIZE_IN_BYTES = 16;

  /** {@code provider} is the Bouncy Castle instance it is reported under; the JDK refuses null. */
  BcCtrCipher(Provider provider) {
    super(new Spi(), provider, TRANSFORMATION);
  }

  private static final class Spi extends CipherSpi {
    private final SICBlockCipher ctr = new SICBlockCipher(AESEngine.newInstance());
    private byte[] iv;

    @Override
    protected void engineSetMode(String mode) throws NoSuchAlgorithmException {
      if (!"CTR".equalsIgnoreCase(mode)) {
        throw new NoSuchAlgorithmException("only CTR");
      }
    }

    @Override
    protected void engineSetPadding(String padding) throws NoSuchPaddingException {
      if (!"NoPadding".equalsIgnoreCase(padding)) {
        throw new NoSuchPaddingException("only NoPadding");
      }
    }

    @Override
    protected int engineGetBlockSize() {
      return BLOCK_SIZE_IN_BYTES;
    }

    @Override
    protected int engineGetOutputSize(int inputLen) {
      return inputLen;
    }

    @Override
    protected byte[] engineGetIV() {
      return iv == null ? null : iv.clone();
    }

    @Override
    protected AlgorithmParameters engineGetParameters() {
      return null;
    }

    @Override
    protected void engineInit(int opmode, Key key, SecureRandom random) throws InvalidKeyException {
      throw new InvalidKeyException("AES-CTR needs the initial counter as an IvParameterSpec");
    }

    @Override
    protected void engineInit(
        int opmode, Key key, AlgorithmParameterSpec params, SecureRandom random)
        throws InvalidKeyException, InvalidAlgorithmParameterException {
      if (!(params instanceof IvParameterSpec)
          || ((IvParameterSpec) params).getIV().length != BLOCK_SIZE_IN_BYTES) {
        throw new InvalidAlgorithmParameterException("AES-CTR needs a 16-byte IvParameterSpec");
      }
      byte[] k = key == null ? null : key.getEncoded();
      if (k == null || (k.length != 16 && k.length != 24 && k.length != 32)) {
        throw new InvalidKeyException("AES needs a 16, 24 or 32-byte key");
      }
      try {
        iv = ((IvParameterSpec) params).getIV();
        ctr.init(true, new ParametersWithIV(new KeyParameter(k), iv));
      } finally {
        Arrays.fill(k, (byte) 0);
      }
    }

    @Override
    protected void engineInit(int opmode, Key key, AlgorithmParameters params, SecureRandom random)
        throws InvalidKeyException, InvalidAlgorithmParameterException {
      try {
        engineInit(opmode, key, params.getParameterSpec(IvParameterSpec.class), random);
      } catch (InvalidParameterSpecException e) {
        throw new InvalidAlgorithmParameterException(e);
      }
    }

    @Override
    protected byte[] engineUpdate(byte[] input, int inputOffset, int inputLen) {
      byte[] out = new byte[inputLen];
      ctr.processBytes(input, inputOffset, inputLen, out, 0);
      return out;
    }

    @Override
    protected int engineUpdate(
        byte[] input, int inputOffset, int inputLen, byte[] output, int outputOffset)
        throws ShortBufferException {
      if (output.length - outputOffset < inputLen) {
        throw new ShortBufferException("output needs " + inputLen + " bytes");
      }
      return ctr.processBytes(input, inputOffset, inputLen, output, outputOffset);
    }

    @Override
    protected byte[] engineDoFinal(byte[] input, int inputOffset, int inputLen) {
      byte[] out = engineUpdate(input, inputOffset, inputLen);
      ctr.reset();
      return out;
    }

    @Override
    protected int engineDoFinal(
        byte[] input, int inputOffset, int inputLen, byte[] output, int outputOffset)
        throws ShortBufferException {
      int n = engineUpdate(input, inputOffset, inputLen, output, outputOffset);
      ctr.reset();
      return n;
    }
  }
}
