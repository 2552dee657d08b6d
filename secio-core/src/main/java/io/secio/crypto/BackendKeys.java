package io.secio.crypto;

import io.secio.protocol.SecioException;
import java.security.GeneralSecurityException;

/**
 * What the identity keys of this module offer the handshake beyond their public API: signing and
 * verifying on a backend the caller names, so that a connection's signatures run on its {@link
 * io.secio.SecioConfig}'s backend like its ECDH and its frame ciphers. Not API (this package is not
 * exported); an {@link io.secio.identity.IdentityKeyPair} of a user's own, which lacks it, signs by
 * itself.
 */
public final class BackendKeys {
  private BackendKeys() {}

  /** An identity private key. Thread-safe. */
  public interface Private {
    /**
     * The signature over {@code message}, made on {@code backend}.
     *
     * @throws SecioException {@link SecioException.Reason#UNAVAILABLE} if the backend does not
     *     offer the key's signature primitive
     * @throws GeneralSecurityException if the provider fails
     */
    byte[] sign(CryptoBackend backend, byte[] message) throws GeneralSecurityException;
  }

  /** An identity public key. Thread-safe. */
  public interface Public {
    /**
     * Whether {@code signature} over {@code message} verifies on {@code backend}; malformed input
     * and any provider failure are {@code false}.
     *
     * @throws SecioException {@link SecioException.Reason#UNAVAILABLE} if the backend does not
     *     offer the key's signature primitive
     */
    boolean verify(CryptoBackend backend, byte[] message, byte[] signature) throws SecioException;
  }
}
