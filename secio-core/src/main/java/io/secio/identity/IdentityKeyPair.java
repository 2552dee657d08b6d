package io.secio.identity;

import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;

/**
 * A node's long-term identity: a private key and its public key. Thread-safe. {@code toString} never
 * shows the private key.
 */
public interface IdentityKeyPair {

  /** The key's type. */
  KeyType type();

  /** The public half, which the peer sees in this node's Propose. */
  IdentityPublicKey publicKey();

  /**
   * Signs {@code message} per docs/PROTOCOL.md section 3 (secp256k1 signatures are low-S), on the
   * {@link io.secio.Backend#AUTO} backend; a handshake signs on its config's backend instead.
   */
  byte[] sign(byte[] message);

  /** The libp2p {@code PrivateKey} protobuf bytes. Treat as a secret. */
  byte[] toProtobuf();

  /** A fresh key of this type (RSA: 2048 bits; ECDSA: P-256). */
  static IdentityKeyPair generate(KeyType type, SecureRandom random) {
    return IdentityKeys.generate(type, random);
  }

  /**
   * Parses a libp2p {@code PrivateKey} protobuf (Ed25519 also in its legacy 96-byte form).
   *
   * @throws IllegalArgumentException if the bytes are not a valid private key of a supported type
   */
  static IdentityKeyPair fromProtobuf(byte[] encoded) {
    return IdentityKeys.privateKeyFromProtobuf(encoded);
  }

  /**
   * Reads a key file (a libp2p {@code PrivateKey} protobuf, as go-libp2p, js-libp2p and the {@code
   * secio} CLI write it), refusing one that its group or others may open, as {@code ssh} refuses such
   * a private key.
   *
   * @throws OpenKeyFileException if others may open the file (its message says how to fix it)
   * @throws IOException if the file cannot be read
   * @throws IllegalArgumentException if it does not hold a valid private key, or is over 64 KiB
   */
  static IdentityKeyPair read(Path path) throws IOException {
    return KeyFile.read(path, false);
  }

  /**
   * Reads a key file as {@link #read(Path)} does; with {@code allowOpenToOthers} a file that others
   * may open is accepted too.
   *
   * @throws IOException if the file cannot be read, or is refused
   * @throws IllegalArgumentException if it does not hold a valid private key, or is over 64 KiB
   */
  static IdentityKeyPair read(Path path, boolean allowOpenToOthers) throws IOException {
    return KeyFile.read(path, allowOpenToOthers);
  }

  /**
   * Writes this key to a new file that only its owner may read or write (mode 600), created so from
   * the start: the secret is never readable by others, not even for a moment.
   *
   * @throws java.nio.file.FileAlreadyExistsException if {@code path} exists: a key is never
   *     overwritten
   * @throws UnsupportedOperationException on a file system without POSIX permissions
   * @throws IOException if the file cannot be written
   */
  default void write(Path path) throws IOException {
    KeyFile.write(path, this);
  }
}
