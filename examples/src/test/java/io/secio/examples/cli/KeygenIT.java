package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.Dialect;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.testsupport.ChildProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code secio keygen} then {@code secio id}, as processes, for every key type. */
class KeygenIT {
  @RegisterExtension
  final Processes processes = new Processes();

  @TempDir
  Path dir;

  @ParameterizedTest
  @EnumSource(KeyType.class)
  void keygenWritesAnOwnerOnlyKeyFileWhosePeerIdIdPrints(KeyType type) throws Exception {
    Path file = dir.resolve("node.key");
    ChildProcess keygen = processes.secio("keygen", "--type", type.name().toLowerCase(), "--out", file.toString());
    assertEquals(0, keygen.awaitExit(), keygen::toString);
    List<String> printed = keygen.outLines();
    assertEquals(1, printed.size(), keygen::toString);
    String peerId = printed.get(0).split(" ")[0];

    assertEquals(java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(file));
    byte[] written = Files.readAllBytes(file);
    IdentityKeyPair key = IdentityKeyPair.fromProtobuf(written);
    assertEquals(type, key.type());
    assertEquals(peerId, Dialect.LIBP2P.peerId(key.publicKey()).toBase58(), "printed id is the file's key's id");
    assertArrayEquals(written, key.toProtobuf(), "the file is exactly a libp2p PrivateKey protobuf");

    ChildProcess id = processes.secio("id", file.toString());
    assertEquals(0, id.awaitExit(), id::toString);
    // One id, the libp2p one, whatever the type (TentacleCliIT checks id --dialect tentacle).
    assertEquals(List.of(Dialect.LIBP2P.peerId(key.publicKey()).toBase58()), id.outLines());
    assertEquals(printed, id.outLines());
  }

  @Test
  void aKeyFileOpenToOthersIsRefusedAsSshRefusesOne() throws Exception {
    Path file = dir.resolve("node.key");
    ChildProcess keygen = processes.secio("keygen", "--type", "ed25519", "--out", file.toString());
    assertEquals(0, keygen.awaitExit(), keygen::toString);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
    ChildProcess refused = processes.secio("listen", "--port", "0", "--key", file.toString());
    assertEquals(SecioCli.EXIT_USAGE, refused.awaitExit(), refused::toString);
    assertEquals(List.of("secio listen: " + file + " is open to others (mode 640): a private key must be "
        + "readable by its owner only; run chmod 600 " + file + ", or pass --allow-open-key-file to use it "
        + "anyway (see 'secio listen --help')"), refused.errLines());
    ChildProcess allowed = processes.secio("id", "--allow-open-key-file", file.toString());
    assertEquals(0, allowed.awaitExit(), allowed::toString);
    assertEquals(keygen.outLines(), allowed.outLines());
  }

  @Test
  void keygenNeverOverwritesAKeyFile() throws Exception {
    Path file = dir.resolve("taken.key");
    Files.write(file, new byte[] {1, 2, 3});
    ChildProcess keygen = processes.secio("keygen", "--type", "ed25519", "--out", file.toString());
    assertEquals(SecioCli.EXIT_FAILURE, keygen.awaitExit(), keygen::toString);
    assertEquals(1, keygen.errLines().size(), keygen::toString);
    assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(file));
    assertTrue(keygen.outLines().isEmpty(), keygen::toString);
  }
}
