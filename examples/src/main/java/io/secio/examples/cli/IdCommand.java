package io.secio.examples.cli;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code secio id}: prints the peer id of a key file. */
@Command(name = "id", mixinStandardHelpOptions = true,
    description = "Prints the peer id of an identity key file.")
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
    cli.out().println(IdentityOptions.load(options, spec, new SecureRandom()).publicKey().peerId());
    return 0;
  }
}
