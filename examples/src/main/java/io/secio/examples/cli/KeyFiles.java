package io.secio.examples.cli;

import io.secio.identity.IdentityKeyPair;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;

/**
 * Identity key files: a libp2p {@code PrivateKey} protobuf, nothing else, as go-libp2p and
 * js-libp2p read and write them. Stateless.
 */
final class KeyFiles {
  /** Owner read and write only. */
  static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

  /** Larger than any key file (an RSA-8192 key is under 5 KiB); bounds what a wrong path reads. */
  private static final long MAX_KEY_FILE_SIZE_IN_BYTES = 64 * 1024;

  private KeyFiles() {}

  /**
   * Writes {@code key} to a new file that is created owner-only, so the secret is never readable by
   * others, not even for a moment. Refuses to overwrite an existing file.
   *
   * @throws java.nio.file.FileAlreadyExistsException if {@code path} exists
   * @throws UnsupportedOperationException on a file system without POSIX permissions
   */
  static void write(Path path, IdentityKeyPair key) throws IOException {
    FileAttribute<Set<PosixFilePermission>> ownerOnly = PosixFilePermissions.asFileAttribute(OWNER_ONLY);
    byte[] secret = key.toProtobuf();
    try (SeekableByteChannel channel = Files.newByteChannel(
        path, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), ownerOnly)) {
      ByteBuffer buffer = ByteBuffer.wrap(secret);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
    } finally {
      Arrays.fill(secret, (byte) 0);
    }
  }

  /**
   * The permissions of {@code path}, in octal as {@code chmod} takes them, if its group or others
   * may read, write or run it (what {@code ssh} refuses in a private key); empty if only its owner
   * may, or on a file system without POSIX permissions.
   *
   * @throws IOException if its permissions cannot be read (no such file, for one)
   */
  static Optional<String> openMode(Path path) throws IOException {
    Set<PosixFilePermission> permissions;
    try {
      permissions = Files.getPosixFilePermissions(path);
    } catch (UnsupportedOperationException e) {
      return Optional.empty();
    }
    int mode = 0;
    for (PosixFilePermission p : permissions) {
      mode |= 0400 >> p.ordinal(); // the enum runs OWNER_READ ... OTHERS_EXECUTE, as the mode bits do
    }
    return (mode & 077) == 0 ? Optional.empty() : Optional.of(Integer.toOctalString(mode));
  }

  /**
   * Reads a key file.
   *
   * @throws IOException if it cannot be read
   * @throws IllegalArgumentException if it does not hold a valid private key
   */
  static IdentityKeyPair read(Path path) throws IOException {
    if (Files.size(path) > MAX_KEY_FILE_SIZE_IN_BYTES) {
      throw new IllegalArgumentException("too large for a key file");
    }
    byte[] secret = Files.readAllBytes(path);
    try {
      return IdentityKeyPair.fromProtobuf(secret);
    } finally {
      Arrays.fill(secret, (byte) 0);
    }
  }
}
