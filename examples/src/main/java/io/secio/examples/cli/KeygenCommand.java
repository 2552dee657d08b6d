package io.secio.examples.cli;

import io.secio.Dialect;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code secio keygen}: writes a new identity key file (mode 600) and prints its peer id, as {@code
 * secio id} does (the libp2p id; {@code secio id --dialect tentacle} prints a secp256k1 key's other).
 */
@Command(name = "keygen", mixinStandardHelpOptions = true,
    description = {
        "Writes a new identity key file and prints its peer id.",
        "The file is a libp2p PrivateKey protobuf, created readable by its owner",
        "only (mode 600). An existing file is never overwritten."})
final class KeygenCommand implements Callable<Integer> {
  @ParentCommand
  private SecioCli cli;

  @Spec
  private CommandSpec spec;

  @Option(names = "--type", required = true, paramLabel = "TYPE",
      converter = IdentityOptions.KeyTypeConverter.class,
      description = "ed25519, secp256k1, rsa (2048 bits) or ecdsa (P-256).")
  private KeyType type;

  @Option(names = "--out", required = true, paramLabel = "FILE", description = "The key file to create.")
  private Path out;

  @Override
  public Integer call() {
    IdentityKeyPair key = IdentityKeyPair.generate(type, new SecureRandom());
    try {
      key.write(out);
    } catch (FileAlreadyExistsException e) {
      cli.error(spec, out + " exists; not overwriting it");
      return SecioCli.EXIT_FAILURE;
    } catch (NoSuchFileException e) {
      Path directory = out.getParent() != null ? out.getParent() : out.toAbsolutePath().getParent();
      cli.error(spec, "cannot create " + out + ": the directory " + directory + " does not exist");
      return SecioCli.EXIT_FAILURE;
    } catch (AccessDeniedException e) {
      cli.error(spec, "cannot create " + out + ": permission denied");
      return SecioCli.EXIT_FAILURE;
    } catch (UnsupportedOperationException e) {
      // No fallback to a world-readable file where owner-only permissions are unsupported.
      cli.error(spec, "cannot create " + out + " readable by its owner only: the file system has no POSIX permissions");
      return SecioCli.EXIT_FAILURE;
    } catch (IOException e) {
      cli.error(spec, "cannot create " + out + ": " + Report.reason(e));
      return SecioCli.EXIT_FAILURE;
    }
    cli.out().println(Dialect.LIBP2P.peerId(key.publicKey()));
    return 0;
  }
}
