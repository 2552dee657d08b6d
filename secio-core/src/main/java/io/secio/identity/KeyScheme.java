package io.secio.identity;

import io.secio.crypto.CryptoBackend;
import io.secio.crypto.Primitive;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.SecureRandom;
import java.security.spec.KeySpec;

/**
 * One identity key type, on the raw {@code Data} bytes of the libp2p {@code PublicKey} and {@code
 * PrivateKey} protobufs (docs/PROTOCOL.md section 3): decoding, validation and the encoding rules a
 * signature must meet. The signing and verifying themselves run on a {@link CryptoBackend}, the
 * caller's. {@link IdentityKeys} wraps the protobuf around it. Implementations are stateless and
 * thread-safe.
 */
interface KeyScheme {

  /**
   * Checks a signature on a backend; may throw on malformed input, which the caller turns into
   * {@code false}.
   */
  @FunctionalInterface
  interface Verifier {
    boolean verify(CryptoBackend backend, byte[] message, byte[] signature)
        throws GeneralSecurityException;
  }

  /**
   * A private key, ready for any backend to import.
   *
   * @param privateData the canonical {@code PrivateKey.Data}
   * @param publicData the {@code PublicKey.Data} of the matching public key
   * @param signature the signature primitive of the key type
   * @param privateSpec the key as {@link CryptoBackend#newSigner} takes it
   */
  record SigningKey(byte[] privateData, byte[] publicData, Primitive signature, KeySpec privateSpec) {}

  /**
   * Validates {@code PublicKey.Data} (encoding, curve membership, size limits).
   *
   * @throws InvalidKeyException if it is not an acceptable public key of this type
   */
  Verifier publicKey(byte[] publicData) throws InvalidKeyException;

  /**
   * Decodes and validates {@code PrivateKey.Data}.
   *
   * @throws InvalidKeyException if it is not an acceptable private key of this type
   */
  SigningKey privateKey(byte[] privateData) throws InvalidKeyException;

  /** A fresh key drawn from {@code random}. */
  SigningKey generate(SecureRandom random);
}
