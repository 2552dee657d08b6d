package io.secio.frame.cipher;

import io.secio.crypto.AeadCipher;
import io.secio.crypto.CryptoBackend;
import io.secio.frame.FrameOpener;
import io.secio.frame.FrameSealer;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.HashAlgorithm;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/** Builds the sealer and opener of a negotiated cipher from one direction's keys. */
public final class FrameCiphers {
  /** An all-zero AES-128 key and counter re-key a dropped CTR cipher of any AES key size. */
  private static final int ZERO_AES_KEY_SIZE_IN_BYTES = 16;

  private FrameCiphers() {}

  /** A sealer for frames sent with {@code keys}. */
  public static FrameSealer sealer(
      CryptoBackend backend, CipherAlgorithm cipher, HashAlgorithm hash, DirectionKeys keys)
      throws GeneralSecurityException {
    return build(backend, cipher, hash, keys, AeadFrameSealer::new, CtrHmacFrameSealer::new);
  }

  /** An opener for frames received with {@code keys}. */
  public static FrameOpener opener(
      CryptoBackend backend, CipherAlgorithm cipher, HashAlgorithm hash, DirectionKeys keys)
      throws GeneralSecurityException {
    return build(backend, cipher, hash, keys, AeadFrameOpener::new, CtrHmacFrameOpener::new);
  }

  private static <T> T build(
      CryptoBackend backend,
      CipherAlgorithm cipher,
      HashAlgorithm hash,
      DirectionKeys keys,
      BiFunction<AeadCipher, NonceCounter, T> aead,
      BiFunction<Cipher, Mac, T> ctrHmac)
      throws GeneralSecurityException {
    byte[] key = keys.cipherKey();
    byte[] iv = keys.iv();
    byte[] macKey = keys.macKey();
    try {
      if (cipher.isAead()) {
        return aead.apply(backend.newAead(cipher, key), new NonceCounter());
      }
      return ctrHmac.apply(backend.newCtr(cipher, key, iv), backend.newHmac(hash, macKey));
    } finally {
      Arrays.fill(key, (byte) 0);
      Arrays.fill(iv, (byte) 0);
      Arrays.fill(macKey, (byte) 0);
    }
  }

  /**
   * Re-keys a CTR cipher and an HMAC with all-zero keys before they are dropped, so that a provider
   * keeping its key schedule in the object overwrites it. Best effort: a provider that refuses keeps
   * its copy until the object is collected, and whether an old copy is overwritten or only replaced
   * is up to the provider.
   */
  static void rekeyWithZeros(Cipher ctr, Mac mac) {
    try {
      if (ctr != null) {
        ctr.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(new byte[ZERO_AES_KEY_SIZE_IN_BYTES], "AES"),
            new IvParameterSpec(new byte[ZERO_AES_KEY_SIZE_IN_BYTES]));
      }
    } catch (GeneralSecurityException | RuntimeException e) {
      // Nothing more can be done for this provider's copy.
    }
    try {
      if (mac != null) {
        mac.init(new SecretKeySpec(new byte[mac.getMacLength()], mac.getAlgorithm()));
      }
    } catch (GeneralSecurityException | RuntimeException e) {
      // As above.
    }
  }

  /** The arguments that are not null, for the key-holder checks of tests. */
  static List<Object> nonNull(Object... holders) {
    return Arrays.stream(holders).filter(Objects::nonNull).toList();
  }
}
