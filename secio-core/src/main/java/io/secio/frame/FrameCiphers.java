package io.secio.frame;

import io.secio.CipherAlgorithm;
import io.secio.HashAlgorithm;
import io.secio.crypto.AeadCipher;
import io.secio.crypto.CryptoBackend;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.function.BiFunction;
import javax.crypto.Cipher;
import javax.crypto.Mac;

/** Builds the sealer and opener of a negotiated cipher from one direction's keys. */
public final class FrameCiphers {
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
}
