package io.secio.identity;

import io.secio.crypto.BackendKeys;
import io.secio.crypto.CryptoBackend;
import io.secio.crypto.CryptoBackends;
import io.secio.crypto.Signer;
import java.security.GeneralSecurityException;
import java.security.spec.KeySpec;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An {@link IdentityKeyPair} held as its private protobuf bytes and its key as every backend imports
 * it. {@link #sign(byte[])} signs on the {@linkplain CryptoBackends#defaultBackend() auto} backend; the
 * handshake signs on its config's ({@link BackendKeys.Private}). Each backend imports the key once,
 * on its first signature. Immutable in what it shows; thread-safe.
 */
final class Libp2pKeyPair implements IdentityKeyPair, BackendKeys.Private {
  /** Far more than the backends of one JVM (four); past it a signer is made per signature. */
  private static final int MAX_SIGNERS = 8;

  private final IdentityPublicKey publicKey;
  private final byte[] protobuf;
  private final KeyScheme.SigningKey key;
  /** By backend instance: a backend does not override {@code equals}. */
  private final Map<CryptoBackend, Signer> signers = new ConcurrentHashMap<>();

  Libp2pKeyPair(IdentityPublicKey publicKey, byte[] protobuf, KeyScheme.SigningKey key) {
    this.publicKey = publicKey;
    this.protobuf = protobuf.clone();
    this.key = key;
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
      return sign(CryptoBackends.defaultBackend(), message);
    } catch (GeneralSecurityException e) {
      // The key was validated when built, so this is a broken provider, not bad input.
      throw new IllegalStateException(type() + " signing failed", e);
    }
  }

  @Override
  public byte[] sign(CryptoBackend backend, byte[] message) throws GeneralSecurityException {
    Objects.requireNonNull(message, "message");
    return signer(backend).sign(message);
  }

  private Signer signer(CryptoBackend backend) throws GeneralSecurityException {
    Signer signer = signers.get(backend);
    if (signer == null) {
      KeySpec spec = key.privateSpec();
      signer = backend.newSigner(key.signature(), spec);
      if (signers.size() < MAX_SIGNERS) {
        signers.putIfAbsent(backend, signer);
      }
    }
    return signer;
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
