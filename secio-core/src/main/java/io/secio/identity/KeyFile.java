package io.secio.identity;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;

/**
 * Identity key files: a libp2p {@code PrivateKey} protobuf and nothing else, as go-libp2p and
 * js-libp2p read and write them, kept where only their owner may read them. Stateless; see {@link
 * IdentityKeyPair#read(Path)} and {@link IdentityKeyPair#write(Path)}.
 */
final class KeyFile {
  /** Owner read and write only. */
  static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

  /** Larger than any key file (an RSA-8192 key is under 5 KiB); bounds what a wrong path reads. */
  static final long MAX_KEY_FILE_SIZE_IN_BYTES = 64 * 1024;

  private KeyFile() {}

  /** Writes {@code key} to a new owner-only file: the secret is never readable by others. */
  static void write(Path path, IdentityKeyPair key) throws IOException {
    byte[] secret = key.toProtobuf();
    try (SeekableByteChannel channel = Files.newByteChannel(path,
        Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
        PosixFilePermissions.asFileAttribute(OWNER_ONLY))) {
      ByteBuffer buffer = ByteBuffer.wrap(secret);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
    } finally {
      Arrays.fill(secret, (byte) 0);
    }
  }

  /** Reads a key file, refusing one that others may open unless {@code allowOpenToOthers}. */
  static IdentityKeyPair read(Path path, boolean allowOpenToOthers) throws IOException {
    if (Files.size(path) > MAX_KEY_FILE_SIZE_IN_BYTES) {
      throw new IllegalArgumentException(path + " is too large for a key file");
    }
    byte[] secret = Files.readAllBytes(path);
    IdentityKeyPair key;
    try {
      // First: a file that is no key at all is told so, whatever its mode.
      key = IdentityKeyPair.fromProtobuf(secret);
    } finally {
      Arrays.fill(secret, (byte) 0);
    }
    Optional<String> mode = openMode(path);
    if (mode.isPresent() && !allowOpenToOthers) {
      throw new OpenKeyFileException(path, mode.get());
    }
    return key;
  }

  /**
   * The permissions of {@code path} in octal, as {@code chmod} takes them, if its group or others
   * may read, write or run it (what {@code ssh} refuses in a private key); empty if only its owner
   * may, or on a file system without POSIX permissions.
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
}
