package io.secio.identity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Key files on disk: written owner-only, read back as the same key, refused when open to others. */
class KeyFileTest {
  @TempDir
  Path dir;

  @ParameterizedTest
  @EnumSource(KeyType.class)
  void aKeyWrittenIsOwnerOnlyAndReadsBackAsTheSameKey(KeyType type) throws Exception {
    IdentityKeyPair key = IdentityKeyPair.generate(type, new SecureRandom());
    Path file = dir.resolve(type + ".key");
    key.write(file);
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    IdentityKeyPair back = IdentityKeyPair.read(file);
    assertEquals(key.publicKey(), back.publicKey());
    assertArrayEquals(key.toProtobuf(), Files.readAllBytes(file));
    assertThrows(FileAlreadyExistsException.class, () -> key.write(file), "a key is never overwritten");
  }

  @ParameterizedTest
  @EnumSource(value = KeyType.class, names = "ED25519")
  void aKeyFileOthersMayOpenIsRefusedUnlessAllowed(KeyType type) throws Exception {
    IdentityKeyPair key = IdentityKeyPair.generate(type, new SecureRandom());
    Path file = dir.resolve("open.key");
    key.write(file);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    OpenKeyFileException e = assertThrows(OpenKeyFileException.class, () -> IdentityKeyPair.read(file));
    assertEquals("644", e.mode());
    assertEquals(file, e.path());
    assertTrue(e.getMessage().contains("chmod 600 " + file), e.getMessage());
    assertEquals(key.publicKey(), IdentityKeyPair.read(file, true).publicKey());
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw----r--"));
    assertEquals("604", assertThrows(OpenKeyFileException.class, () -> IdentityKeyPair.read(file)).mode());
  }

  @ParameterizedTest
  @EnumSource(value = KeyType.class, names = "SECP256K1")
  void aFileThatIsNoKeyIsToldSoWhateverItsModeAndABigOneIsNotRead(KeyType type) throws Exception {
    Path junk = dir.resolve("junk.key");
    Files.write(junk, new byte[] {1, 2, 3});
    Files.setPosixFilePermissions(junk, PosixFilePermissions.fromString("rw-rw-rw-"));
    assertThrows(IllegalArgumentException.class, () -> IdentityKeyPair.read(junk));
    Path big = dir.resolve("big.key");
    Files.write(big, new byte[(int) KeyFile.MAX_KEY_FILE_SIZE_IN_BYTES + 1]);
    Files.setPosixFilePermissions(big, PosixFilePermissions.fromString("rw-------"));
    assertThrows(IllegalArgumentException.class, () -> IdentityKeyPair.read(big));
  }
}
