package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.Dialect;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import java.nio.file.Files;
import java.nio.file.Path;
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
    CliProcess keygen = processes.secio("keygen", "--type", type.name().toLowerCase(), "--out", file.toString());
    assertEquals(0, keygen.awaitExit(), keygen::toString);
    List<String> printed = keygen.outLines();
    assertEquals(1, printed.size(), keygen::toString);
    String peerId = printed.get(0).split(" ")[0];

    assertEquals(KeyFiles.OWNER_ONLY, Files.getPosixFilePermissions(file));
    byte[] written = Files.readAllBytes(file);
    IdentityKeyPair key = IdentityKeyPair.fromProtobuf(written);
    assertEquals(type, key.type());
    assertEquals(peerId, Dialect.LIBP2P.peerId(key.publicKey()).toBase58(), "printed id is the file's key's id");
    assertArrayEquals(written, key.toProtobuf(), "the file is exactly a libp2p PrivateKey protobuf");

    CliProcess id = processes.secio("id", file.toString());
    assertEquals(0, id.awaitExit(), id::toString);
    // A secp256k1 key's tentacle id is printed beside its libp2p id (TentacleCliIT checks it).
    assertEquals(printed, id.outLines());
  }

  @Test
  void keygenNeverOverwritesAKeyFile() throws Exception {
    Path file = dir.resolve("taken.key");
    Files.write(file, new byte[] {1, 2, 3});
    CliProcess keygen = processes.secio("keygen", "--type", "ed25519", "--out", file.toString());
    assertEquals(SecioCli.EXIT_FAILURE, keygen.awaitExit(), keygen::toString);
    assertEquals(1, keygen.errLines().size(), keygen::toString);
    assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(file));
    assertTrue(keygen.outLines().isEmpty(), keygen::toString);
  }
}
