package io.secio.identity;

import io.secio.PeerId;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Objects;

/** An {@link IdentityPublicKey} held as its validated protobuf bytes and a verifier. Immutable. */
final class Libp2pPublicKey implements IdentityPublicKey {
  private final KeyType type;
  private final byte[] protobuf;
  private final byte[] data;
  private final KeyScheme.Verifier verifier;
  /** Computed on first use; a race computes the same immutable value twice, which is harmless. */
  private volatile PeerId peerId;

  Libp2pPublicKey(KeyType type, byte[] protobuf, byte[] data, KeyScheme.Verifier verifier) {
    this.type = type;
    this.protobuf = protobuf.clone();
    this.data = data.clone();
    this.verifier = verifier;
  }

  @Override
  public KeyType type() {
    return type;
  }

  @Override
  public byte[] toProtobuf() {
    return protobuf.clone();
  }

  @Override
  public byte[] keyData() {
    return data.clone();
  }

  /**
   * {@inheritDoc}
   *
   * <p>Never throws on malformed signatures: every failure, whatever the provider reports, is
   * {@code false}.
   */
  @Override
  public boolean verify(byte[] message, byte[] signature) {
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(signature, "signature");
    try {
      return verifier.verify(message, signature);
    } catch (GeneralSecurityException | RuntimeException e) {
      // A peer's garbage must end in a clean "bad signature", whatever the provider throws.
      return false;
    }
  }

  @Override
  public PeerId peerId() {
    PeerId id = peerId;
    if (id == null) {
      id = PeerId.fromPublicKey(this);
      peerId = id;
    }
    return id;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Libp2pPublicKey && Arrays.equals(protobuf, ((Libp2pPublicKey) o).protobuf);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(protobuf);
  }

  @Override
  public String toString() {
    return type + " public key " + peerId();
  }
}
