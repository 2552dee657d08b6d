package io.secio.crypto;

import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.spec.KeySpec;
import javax.crypto.Cipher;
import javax.crypto.Mac;

/**
 * A source of the primitives secio frames, exchanges and identity signatures need: Conscrypt (BoringSSL), the JDK, or
 * Bouncy Castle, or a per-primitive choice among them. Obtain instances from {@link CryptoBackends};
 * a backend only offers a primitive after that primitive passed its known-answer self-test.
 *
 * <p>Implementations are thread-safe; the objects they return are not.
 */
public interface CryptoBackend {

  /** A short name, such as {@code conscrypt}, {@code jdk} or {@code bouncycastle}. */
  String name();

  /** Whether this backend offers the primitive and it passed its self-test. */
  boolean offers(Primitive primitive);

  /** The name of the backend that actually serves this primitive (differs for a per-primitive choice). */
  default String nameFor(Primitive primitive) {
    return name();
  }

  /** A new AEAD for one direction of one connection, keyed with {@code key}. */
  AeadCipher newAead(CipherAlgorithm cipher, byte[] key) throws GeneralSecurityException;

  /**
   * A new AES-CTR stream cipher (encryption and decryption are the same operation) whose initial
   * 128-bit big-endian counter is {@code iv}; the keystream continues across calls.
   */
  Cipher newCtr(CipherAlgorithm cipher, byte[] key, byte[] iv) throws GeneralSecurityException;

  /** A new HMAC keyed with {@code key}. */
  Mac newHmac(HashAlgorithm hash, byte[] key) throws GeneralSecurityException;

  /**
   * A fresh ephemeral key pair on the curve of {@code exchange}, from the provider's own key pair
   * generator. That generator may ignore {@code random} (Conscrypt's uses BoringSSL's), so the same
   * seed need not give the same key twice; known answers use {@link #ephemeralFromPrivate}.
   */
  EphemeralKeyPair generateEphemeral(ExchangeAlgorithm exchange, SecureRandom random)
      throws GeneralSecurityException;

  /**
   * The ephemeral key pair with this private scalar (big-endian for NIST curves, the 32 raw bytes for
   * X25519). For known-answer tests; a handshake always generates a fresh key.
   */
  EphemeralKeyPair ephemeralFromPrivate(ExchangeAlgorithm exchange, byte[] privateKey)
      throws GeneralSecurityException;

  /**
   * A signer for an identity private key of the signature primitive {@code signature}: {@link
   * Ed25519KeySpecs.Private} for {@link Primitive#ED25519}, {@link java.security.spec.ECPrivateKeySpec}
   * for the two ECDSA curves, {@link java.security.spec.RSAPrivateCrtKeySpec} for {@link
   * Primitive#RSA_SHA256}. The key is imported now and copied; the caller keeps and wipes its spec.
   *
   * @throws java.security.InvalidKeyException if the provider refuses the key
   */
  Signer newSigner(Primitive signature, KeySpec privateKey) throws GeneralSecurityException;

  /**
   * Whether {@code sig} is a valid signature over {@code message} under the identity public key
   * {@code publicKey} ({@link Ed25519KeySpecs.Public}, {@link java.security.spec.ECPublicKeySpec} or
   * {@link java.security.spec.RSAPublicKeySpec}), already validated by the caller. Ed25519 is judged
   * by the cofactored equation on every backend (docs/PROTOCOL.md section 3.1).
   *
   * @throws GeneralSecurityException if the provider fails or throws on malformed input
   */
  boolean verify(Primitive signature, KeySpec publicKey, byte[] message, byte[] sig)
      throws GeneralSecurityException;
}
