package io.secio.identity;

import io.secio.crypto.BackendKeys;
import io.secio.crypto.CryptoBackend;
import io.secio.crypto.CryptoBackends;
import io.secio.crypto.Sha256;
import io.secio.protocol.SecioException;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * An {@link IdentityPublicKey} held as its validated protobuf bytes and a verifier. {@link
 * #verify(byte[], byte[])} checks on the {@linkplain CryptoBackends#defaultBackend() auto} backend;
 * the handshake checks on its config's ({@link BackendKeys.Public}). Immutable.
 */
final class Libp2pPublicKey implements IdentityPublicKey, BackendKeys.Public {
  private static final int FINGERPRINT_SIZE_IN_BYTES = 8;

  private final KeyType type;
  private final byte[] protobuf;
  private final byte[] data;
  private final KeyScheme.Verifier verifier;

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
    try {
      return verify(CryptoBackends.defaultBackend(), message, signature);
    } catch (SecioException unavailable) {
      return false;
    }
  }

  @Override
  public boolean verify(CryptoBackend backend, byte[] message, byte[] signature)
      throws SecioException {
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(signature, "signature");
    try {
      return verifier.verify(backend, message, signature);
    } catch (SecioException e) {
      if (e.reason() == SecioException.Reason.UNAVAILABLE) {
        throw e;
      }
      return false;
    } catch (GeneralSecurityException | RuntimeException e) {
      // A peer's garbage must end in a clean "bad signature", whatever the provider throws.
      return false;
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Libp2pPublicKey && Arrays.equals(protobuf, ((Libp2pPublicKey) o).protobuf);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(protobuf);
  }

  /** The type and the key's fingerprint: enough to tell keys apart in a log. */
  @Override
  public String toString() {
    return type + " public key " + fingerprint(data);
  }

  /**
   * The first {@value #FINGERPRINT_SIZE_IN_BYTES} bytes of SHA-256 of the key data, in hex: a hash
   * rather than the key's own bytes, which an Ed25519 private key repeats.
   */
  static String fingerprint(byte[] keyData) {
    return "sha256:" + HexFormat.of().formatHex(Sha256.digest(keyData), 0, FINGERPRINT_SIZE_IN_BYTES);
  }
}
