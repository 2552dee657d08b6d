package io.secio.benchmarks;

import io.secio.protocol.CipherAlgorithm;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.Provider;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.conscrypt.Conscrypt;

/**
 * An AEAD straight from one JCA provider, with none of secio's code in the way: the yardstick the
 * frame path is held against. One cipher object per direction, re-initialised with a counter nonce
 * per message, as any user of the primitive must. Not thread-safe.
 */
final class RawAead {
  private final CipherAlgorithm algorithm;
  private final SecretKeySpec key;
  private final Cipher sealing;
  private final Cipher opening;
  private final byte[] nonce = new byte[12];
  private long counter;

  RawAead(String backend, CipherAlgorithm algorithm) throws GeneralSecurityException {
    this.algorithm = algorithm;
    boolean gcm = algorithm != CipherAlgorithm.CHACHA20_POLY1305;
    this.key = new SecretKeySpec(new byte[algorithm.keySizeInBytes()], gcm ? "AES" : "ChaCha20");
    this.sealing = cipher(backend, transformation(backend, gcm));
    this.opening = cipher(backend, transformation(backend, gcm));
  }

  /** Encrypts {@code plaintext} into {@code sealed}, then decrypts that into {@code opened}. */
  void sealOpen(ByteBuffer plaintext, ByteBuffer sealed, ByteBuffer opened)
      throws GeneralSecurityException {
    nextNonce();
    sealing.init(Cipher.ENCRYPT_MODE, key, parameters());
    sealing.doFinal(plaintext, sealed);
    sealed.flip();
    opening.init(Cipher.DECRYPT_MODE, key, parameters());
    opening.doFinal(sealed, opened);
  }

  private void nextNonce() {
    counter++;
    for (int i = 0; i < 8; i++) {
      nonce[i] = (byte) (counter >>> (8 * i));
    }
  }

  private java.security.spec.AlgorithmParameterSpec parameters() {
    return algorithm == CipherAlgorithm.CHACHA20_POLY1305
        ? new IvParameterSpec(nonce)
        : new GCMParameterSpec(128, nonce);
  }

  private static String transformation(String backend, boolean gcm) {
    if (gcm) {
      return "AES/GCM/NoPadding";
    }
    return backend.equals("conscrypt") ? "ChaCha20/Poly1305/NoPadding" : "ChaCha20-Poly1305";
  }

  /** The backend's provider; {@code jdk} is the default lookup. */
  static Cipher cipher(String backend, String transformation) throws GeneralSecurityException {
    Provider provider = provider(backend);
    return provider == null
        ? Cipher.getInstance(transformation)
        : Cipher.getInstance(transformation, provider);
  }

  private static Provider provider(String backend) {
    switch (backend) {
      case "conscrypt":
        return ConscryptHolder.PROVIDER;
      case "bouncycastle":
        return BouncyCastleHolder.PROVIDER;
      case "jdk":
        return null;
      default:
        throw new IllegalArgumentException("unknown backend " + backend);
    }
  }

  private static final class ConscryptHolder {
    static final Provider PROVIDER = Conscrypt.newProvider();
  }

  private static final class BouncyCastleHolder {
    static final Provider PROVIDER = new BouncyCastleProvider();
  }
}
