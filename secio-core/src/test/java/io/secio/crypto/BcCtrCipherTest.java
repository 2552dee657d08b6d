package io.secio.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.secio.testing.Hex;
import java.security.AlgorithmParameters;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bouncy Castle's lightweight AES-CTR behind the JCA {@link Cipher} API, checked against the JDK's
 * AES/CTR/NoPadding: every key size, each way of initialising it, its answers to the JCA's
 * questions, and the refusals.
 */
class BcCtrCipherTest {
  private static final byte[] IV = Hex.decode("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");
  private static final int LENGTH = 100; // six blocks and a partial one

  private static Cipher bc() {
    return new BcCtrCipher(new BouncyCastleProvider());
  }

  private static byte[] input() {
    byte[] in = new byte[LENGTH];
    for (int i = 0; i < in.length; i++) {
      in[i] = (byte) (i * 7);
    }
    return in;
  }

  private static byte[] key(int size) {
    byte[] key = new byte[size];
    Arrays.fill(key, (byte) size);
    return key;
  }

  private static byte[] jdk(byte[] key, byte[] in) throws Exception {
    Cipher jdk = Cipher.getInstance("AES/CTR/NoPadding", "SunJCE");
    jdk.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(IV));
    return jdk.doFinal(in);
  }

  @ParameterizedTest
  @ValueSource(ints = {16, 24, 32})
  void everyAesKeySizeGivesTheJdksKeystream(int keySize) throws Exception {
    Cipher c = bc();
    c.init(Cipher.ENCRYPT_MODE, new DestroyableKey(key(keySize), "AES"), new IvParameterSpec(IV));

    assertArrayEquals(jdk(key(keySize), input()), c.update(input()));
  }

  @Test
  void initialisedFromAlgorithmParametersLikeFromASpec() throws Exception {
    AlgorithmParameters params = AlgorithmParameters.getInstance("AES");
    params.init(new IvParameterSpec(IV));
    Cipher c = bc();

    c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key(16), "AES"), params);

    assertArrayEquals(jdk(key(16), input()), c.update(input()));
  }

  @Test
  void answersTheJcaQuestions() throws Exception {
    Cipher c = bc();
    assertNull(c.getIV(), "no iv before init");
    assertNull(c.getParameters());
    c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key(16), "AES"), new IvParameterSpec(IV));

    assertEquals(16, c.getBlockSize());
    assertEquals(LENGTH, c.getOutputSize(LENGTH), "a stream cipher holds nothing back");
    assertArrayEquals(IV, c.getIV());
    byte[] iv = c.getIV();
    iv[0] ^= 1;
    assertArrayEquals(IV, c.getIV(), "getIV() hands out a copy");
  }

  @Test
  void updateContinuesTheKeystreamAndDoFinalRewindsIt() throws Exception {
    byte[] in = input();
    byte[] expected = jdk(key(16), in);
    Cipher c = bc();
    c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key(16), "AES"), new IvParameterSpec(IV));

    byte[] out = new byte[LENGTH + 3];
    int first = c.update(in, 0, 21, out, 3);
    int rest = c.doFinal(in, 21, LENGTH - 21, out, 3 + 21);

    assertEquals(21, first);
    assertEquals(LENGTH - 21, rest);
    assertArrayEquals(expected, Arrays.copyOfRange(out, 3, 3 + LENGTH));
    assertArrayEquals(expected, c.doFinal(in), "doFinal ended the stream: back at the iv");
    assertArrayEquals(expected, c.doFinal(in), "and again");
  }

  @Test
  void anOutputTooSmallIsRefusedBeforeAnyByteIsUsed() throws Exception {
    Cipher c = bc();
    c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key(16), "AES"), new IvParameterSpec(IV));

    assertThrows(ShortBufferException.class, () -> c.update(input(), 0, 16, new byte[20], 5));
    byte[] exact = new byte[20];
    assertEquals(16, c.update(input(), 0, 16, exact, 4), "exactly enough room is enough");
    assertArrayEquals(Arrays.copyOf(jdk(key(16), input()), 16), Arrays.copyOfRange(exact, 4, 20),
        "the refused call consumed no keystream");
  }

  @Test
  void initialisationWithoutACounterOrWithAWrongOneIsRefused() {
    SecretKeySpec key = new SecretKeySpec(key(16), "AES");
    assertThrows(InvalidKeyException.class, () -> bc().init(Cipher.ENCRYPT_MODE, key));
    assertThrows(InvalidAlgorithmParameterException.class,
        () -> bc().init(Cipher.ENCRYPT_MODE, key, new IvParameterSpec(new byte[12])));
    assertThrows(InvalidAlgorithmParameterException.class,
        () -> bc().init(Cipher.ENCRYPT_MODE, key, new IvParameterSpec(new byte[17])));
    assertThrows(InvalidAlgorithmParameterException.class,
        () -> bc().init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, IV)));
    AlgorithmParameters gcm = gcmParameters();
    assertThrows(InvalidAlgorithmParameterException.class,
        () -> bc().init(Cipher.ENCRYPT_MODE, key, gcm));
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 15, 17, 23, 25, 31, 33})
  void keysOfNoAesSizeAreRefused(int keySize) {
    DestroyableKey key = new DestroyableKey(new byte[keySize], "AES");
    assertThrows(InvalidKeyException.class,
        () -> bc().init(Cipher.ENCRYPT_MODE, key, new IvParameterSpec(IV)));
  }

  @Test
  void aKeyWithoutEncodingIsRefused() {
    SecretKeySpec real = new SecretKeySpec(key(16), "AES");
    javax.crypto.SecretKey opaque = new javax.crypto.SecretKey() {
      private static final long serialVersionUID = 1L;

      @Override
      public String getAlgorithm() {
        return real.getAlgorithm();
      }

      @Override
      public String getFormat() {
        return null;
      }

      @Override
      public byte[] getEncoded() {
        return null;
      }
    };
    assertThrows(InvalidKeyException.class,
        () -> bc().init(Cipher.ENCRYPT_MODE, opaque, new IvParameterSpec(IV)));
    assertThrows(InvalidKeyException.class,
        () -> bc().init(Cipher.ENCRYPT_MODE, null, new IvParameterSpec(IV)), "no key at all");
  }

  private static AlgorithmParameters gcmParameters() {
    try {
      AlgorithmParameters p = AlgorithmParameters.getInstance("GCM");
      p.init(new GCMParameterSpec(128, new byte[12]));
      return p;
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
