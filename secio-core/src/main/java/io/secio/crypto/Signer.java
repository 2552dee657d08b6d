package io.secio.crypto;

import java.security.GeneralSecurityException;

/**
 * One identity private key, imported into one backend, ready to sign: made by {@link
 * CryptoBackend#newSigner}. Thread-safe. {@code toString} never shows the key.
 */
@FunctionalInterface
public interface Signer {

  /** The signature over {@code message} (encoded as the key type's {@link Primitive} says). */
  byte[] sign(byte[] message) throws GeneralSecurityException;
}
