package io.secio.crypto;

import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.SecioException;

/**
 * One side's ephemeral key for one handshake (docs/PROTOCOL.md section 7). Not thread-safe; {@link #destroy()}
 * forgets the private key.
 */
public interface EphemeralKeyPair {

  ExchangeAlgorithm exchange();

  /**
   * The {@code epubkey} bytes: {@code 0x04 || X || Y} with fixed-size coordinates for NIST curves, the
   * 32 raw bytes for X25519.
   */
  byte[] publicKey();

  /**
   * The shared secret with the peer's {@code epubkey}: the X coordinate (or X25519 output) as a
   * fixed-length big-endian string, never stripped of leading zeros.
   *
   * @throws SecioException with {@link SecioException.Reason#BAD_EPHEMERAL_KEY} when the peer's key
   *     has the wrong length or encoding, is not on the curve, is the point at infinity, or gives an
   *     all-zero X25519 secret
   */
  byte[] agree(byte[] remotePublicKey) throws SecioException;

  /** Forgets the private key; later calls to {@link #agree} fail. */
  void destroy();
}
