package io.secio.frame;

import io.secio.CipherAlgorithm;
import io.secio.HashAlgorithm;
import io.secio.crypto.CryptoBackend;
import java.security.GeneralSecurityException;
import java.util.Arrays;

/** Builds the sealer and opener of a negotiated cipher from one direction's keys. */
public final class FrameCiphers {
  private FrameCiphers() {}

  /** A sealer for frames sent with {@code keys}. */
  public static FrameSealer sealer(
      CryptoBackend backend, CipherAlgorithm cipher, HashAlgorithm hash, DirectionKeys keys)
      throws GeneralSecurityException {
    byte[] key = keys.cipherKey();
    byte[] iv = keys.iv();
    byte[] macKey = keys.macKey();
    try {
      if (cipher.isAead()) {
        return new AeadFrameSealer(backend.newAead(cipher, key), new NonceCounter());
      }
      return new CtrHmacFrameSealer(backend.newCtr(cipher, key, iv), backend.newHmac(hash, macKey));
    } finally {
      wipe(key, iv, macKey);
    }
  }

  /** An opener for frames received with {@code keys}. */
  public static FrameOpener opener(
      CryptoBackend backend, CipherAlgorithm cipher, HashAlgorithm hash, DirectionKeys keys)
      throws GeneralSecurityException {
    byte[] key = keys.cipherKey();
    byte[] iv = keys.iv();
    byte[] macKey = keys.macKey();
    try {
      if (cipher.isAead()) {
        return new AeadFrameOpener(backend.newAead(cipher, key), new NonceCounter());
      }
      return new CtrHmacFrameOpener(backend.newCtr(cipher, key, iv), backend.newHmac(hash, macKey));
    } finally {
      wipe(key, iv, macKey);
    }
  }

  private static void wipe(byte[]... secrets) {
    for (byte[] s : secrets) {
      Arrays.fill(s, (byte) 0);
    }
  }
}
