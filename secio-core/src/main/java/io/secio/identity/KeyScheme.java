package io.secio.identity;

import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.SecureRandom;

/**
 * The cryptography of one identity key type, on the raw {@code Data} bytes of the libp2p
 * {@code PublicKey} and {@code PrivateKey} protobufs (docs/PROTOCOL.md section 3). {@link IdentityKeys} wraps the
 * protobuf around it. Implementations are stateless and thread-safe.
 */
interface KeyScheme {

  /** Checks a signature; may throw on malformed input, which the caller turns into {@code false}. */
  @FunctionalInterface
  interface Verifier {
    boolean verify(byte[] message, byte[] signature) throws GeneralSecurityException;
  }

  /** Signs a message; thread-safe. */
  @FunctionalInterface
  interface Signer {
    byte[] sign(byte[] message) throws GeneralSecurityException;
  }

  /**
   * A private key ready to sign.
   *
   * @param privateData the canonical {@code PrivateKey.Data}
   * @param publicData the {@code PublicKey.Data} of the matching public key
   */
  record SigningKey(byte[] privateData, byte[] publicData, Signer signer) {}

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
