package io.secio.identity;

import java.security.GeneralSecurityException;
import java.util.Objects;

/** An {@link IdentityKeyPair} held as its private protobuf bytes and a signer. Immutable. */
final class Libp2pKeyPair implements IdentityKeyPair {
  private final IdentityPublicKey publicKey;
  private final byte[] protobuf;
  private final KeyScheme.Signer signer;

  Libp2pKeyPair(IdentityPublicKey publicKey, byte[] protobuf, KeyScheme.Signer signer) {
    this.publicKey = publicKey;
    this.protobuf = protobuf.clone();
    this.signer = signer;
  }

  @Override
  public KeyType type() {
    return publicKey.type();
  }

  @Override
  public IdentityPublicKey publicKey() {
    return publicKey;
  }

  @Override
  public byte[] sign(byte[] message) {
    Objects.requireNonNull(message, "message");
    try {
      return signer.sign(message);
    } catch (GeneralSecurityException e) {
      // The key was validated when built, so this is a broken provider, not bad input.
      throw new IllegalStateException(type() + " signing failed", e);
    }
  }

  @Override
  public byte[] toProtobuf() {
    return protobuf.clone();
  }

  /** Type and the public key's first bytes only: never the private key. */
  @Override
  public String toString() {
    return "IdentityKeyPair{type=" + type() + ", publicKey=" + Libp2pPublicKey.fingerprint(publicKey.keyData())
        + "}";
  }
}
