package io.secio.identity;

import io.secio.protocol.SecioException;

/**
 * A peer's long-term public key, as carried in a Propose. Immutable and thread-safe; {@code equals}
 * compares the protobuf encoding.
 */
public interface IdentityPublicKey {

  /** The key's type. */
  KeyType type();

  /** The libp2p {@code PublicKey} protobuf bytes (these are what a peer id hashes). */
  byte[] toProtobuf();

  /**
   * The key itself, without its protobuf ({@code PublicKey.Data}): for secp256k1 the 33-byte
   * compressed point, which is what tentacle sends and hashes.
   */
  byte[] keyData();

  /**
   * Whether {@code signature} is this key's signature over {@code message} (docs/PROTOCOL.md
   * section 3), checked on the {@link io.secio.Backend#AUTO} backend (a handshake checks on its
   * config's). Its peer id is the dialect's ({@link io.secio.Dialect#peerId}).
   */
  boolean verify(byte[] message, byte[] signature);

  /**
   * Parses a libp2p {@code PublicKey} protobuf.
   *
   * @throws SecioException {@link SecioException.Reason#MALFORMED_MESSAGE} for an unknown key type,
   *     bad key data, or an RSA key under 2048 bits
   */
  static IdentityPublicKey fromProtobuf(byte[] encoded) throws SecioException {
    return IdentityKeys.publicKeyFromProtobuf(encoded);
  }

  /**
   * A secp256k1 key from its 33-byte compressed SEC1 point (tentacle's form).
   *
   * @throws SecioException {@link SecioException.Reason#MALFORMED_MESSAGE} unless it is a
   *     compressed point on the curve
   */
  static IdentityPublicKey fromSecp256k1(byte[] compressedPoint) throws SecioException {
    return IdentityKeys.secp256k1PublicKey(compressedPoint);
  }
}
