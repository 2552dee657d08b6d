package io.secio.examples.cli;

import io.secio.Dialect;
import io.secio.identity.IdentityPublicKey;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code secio id}: prints the peer id of a key file, one id and nothing else, so that {@code
 * --expect-peer "$(secio id FILE)"} works: the libp2p id, or with {@code --dialect tentacle} the
 * tentacle id of a secp256k1 key (which hashes the raw compressed key instead of embedding its
 * protobuf).
 */
@Command(name = "id", mixinStandardHelpOptions = true,
    description = {"Prints the peer id of an identity key file: one id, in the",
        "dialect's form (--expect-peer takes it as it is)."})
final class IdCommand implements Callable<Integer> {
  @ParentCommand
  private SecioCli cli;

  @Spec
  private CommandSpec spec;

  @Parameters(paramLabel = "FILE", description = "A libp2p PrivateKey protobuf file.")
  private Path file;

  @Option(names = "--dialect", paramLabel = "DIALECT", defaultValue = "libp2p",
      converter = DialectOption.Converter.class,
      description = "libp2p (default): the libp2p id; tentacle: the tentacle id (Qm...) of a "
          + "secp256k1 key.")
  private Dialect dialect;

  @Mixin
  private IdentityOptions.AllowOpenKeyFile openKeyFile;

  @Override
  public Integer call() {
    IdentityPublicKey key = IdentityOptions.read(file, openKeyFile.allowed, spec).publicKey();
    DialectOption.requireKeyFor("--dialect", dialect, key.type(), spec);
    cli.out().println(dialect.peerId(key));
    return 0;
  }
}
