package io.secio.examples.cli;

import io.secio.identity.IdentityPublicKey;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code secio id}: prints the peer id of a key file; for a secp256k1 key also its tentacle id, which
 * hashes the raw compressed key instead of embedding its protobuf.
 */
@Command(name = "id", mixinStandardHelpOptions = true,
    description = {"Prints the peer id of an identity key file.",
        "For a secp256k1 key: 'LIBP2P-ID tentacle=TENTACLE-ID'."})
final class IdCommand implements Callable<Integer> {
  @ParentCommand
  private SecioCli cli;

  @Spec
  private CommandSpec spec;

  @Parameters(paramLabel = "FILE", description = "A libp2p PrivateKey protobuf file.")
  private Path file;

  @Override
  public Integer call() {
    IdentityOptions options = new IdentityOptions();
    options.keyFile = file;
    IdentityPublicKey key = IdentityOptions.load(options, spec, new SecureRandom()).publicKey();
    cli.out().println(Report.ids(key));
    return 0;
  }
}
