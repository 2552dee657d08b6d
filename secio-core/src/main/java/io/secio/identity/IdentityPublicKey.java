package io.secio.identity;

import io.secio.PeerId;
import io.secio.SecioException;

/**
 * A peer's long-term public key, as carried in a Propose. Immutable and thread-safe; {@code equals}
 * compares the protobuf encoding.
 */
public interface IdentityPublicKey {

  KeyType type();

  /** The libp2p {@code PublicKey} protobuf bytes (these are what a peer id hashes). */
  byte[] toProtobuf();

  /** Whether {@code signature} is this key's signature over {@code message} per the spec's table. */
  boolean verify(byte[] message, byte[] signature);

  /** The peer id of this key. */
  default PeerId peerId() {
    return PeerId.fromPublicKey(this);
  }

  /**
   * Parses a libp2p {@code PublicKey} protobuf.
   *
   * @throws SecioException {@link SecioException.Reason#MALFORMED_MESSAGE} for an unknown key type,
   *     bad key data, or an RSA key under 2048 bits
   */
  static IdentityPublicKey fromProtobuf(byte[] encoded) throws SecioException {
    return IdentityKeys.publicKeyFromProtobuf(encoded);
  }
}
