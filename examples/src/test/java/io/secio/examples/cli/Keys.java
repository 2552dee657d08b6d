package io.secio.examples.cli;

import io.secio.Dialect;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;

/** Identity key files for tests, written the way {@code secio keygen} writes them. */
final class Keys {
  private static final SecureRandom RANDOM = new SecureRandom();

  /** A key file and its peer id. */
  record Key(Path file, String peerId) {
    String path() {
      return file.toString();
    }
  }

  private Keys() {}

  static Key write(Path dir, KeyType type) throws IOException {
    IdentityKeyPair pair = IdentityKeyPair.generate(type, RANDOM);
    Path file = dir.resolve(type.name().toLowerCase() + "-" + Dialect.LIBP2P.peerId(pair.publicKey()) + ".key");
    pair.write(file);
    return new Key(file, Dialect.LIBP2P.peerId(pair.publicKey()).toBase58());
  }
}
