package io.secio;

import io.secio.identity.IdentityPublicKey;

/**
 * A libp2p peer id: the multihash of a {@code PublicKey} protobuf, shown in base58. Immutable, thread-safe,
 * equal when the multihashes are equal. STUB: to be replaced by the real implementation.
 */
public final class PeerId {
  private final byte[] multihash;

  private PeerId(byte[] multihash) {
    this.multihash = multihash.clone();
  }

  /** The peer id of a public key: identity multihash up to 42 bytes of protobuf, sha2-256 above. */
  public static PeerId fromPublicKey(IdentityPublicKey key) {
    throw new UnsupportedOperationException("not yet");
  }

  /** Parses the base58 text form. @throws IllegalArgumentException if it is not a valid peer id */
  public static PeerId parse(String base58) {
    throw new UnsupportedOperationException("not yet");
  }

  /** The multihash bytes. */
  public byte[] toBytes() {
    return multihash.clone();
  }

  /** Base58 (bitcoin alphabet) of the multihash. */
  public String toBase58() {
    throw new UnsupportedOperationException("not yet");
  }

  /** Whether this id is the id of {@code key}. */
  public boolean matches(IdentityPublicKey key) {
    return equals(fromPublicKey(key));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PeerId && java.util.Arrays.equals(multihash, ((PeerId) o).multihash);
  }

  @Override
  public int hashCode() {
    return java.util.Arrays.hashCode(multihash);
  }

  @Override
  public String toString() {
    return toBase58();
  }
}
