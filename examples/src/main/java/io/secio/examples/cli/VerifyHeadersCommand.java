package io.secio.examples.cli;

import io.secio.ckb.CkbNetwork;
import io.secio.ckb.header.Consensus;
import io.secio.ckb.header.HeaderException;
import io.secio.ckb.header.HeaderJson;
import io.secio.ckb.header.HeaderListVerifier;
import io.secio.ckb.header.MalformedHeaderException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code secio ckb verify-headers FILE --network NET}: checks a file of consecutive headers in CKB's
 * RPC JSON form (a JSON array, or one object per line) and prints {@code ok N} (exit 0), or the
 * first bad header with the rule it breaks (exit 1). A dev network checks with the Dummy PoW.
 */
@Command(name = "verify-headers", mixinStandardHelpOptions = true,
    description = {"Checks consecutive CKB headers in RPC JSON form (an array, or one per line):",
        "prints 'ok N', or the first bad header and the rule it breaks (exit 1)."})
public final class VerifyHeadersCommand implements Callable<Integer> {
  @Spec
  private CommandSpec spec;

  @Parameters(paramLabel = "FILE", description = "The headers, oldest first.")
  private Path file;

  @Option(names = "--network", paramLabel = "NET", required = true,
      description = "mainnet, testnet or dev:NAME:GENESIS_HASH.")
  private String network;

  /** Creates the command; picocli sets its fields. */
  public VerifyHeadersCommand() {}

  @Override
  public Integer call() {
    Consensus consensus = Consensus.of(CkbNetwork.parse(network));
    try {
      String text = Files.readString(file, StandardCharsets.UTF_8);
      int count = new HeaderListVerifier(consensus, Clock.systemUTC()).verify(HeaderJson.parseAll(text));
      spec.commandLine().getOut().println("ok " + count);
      return 0;
    } catch (HeaderException e) {
      spec.commandLine().getOut().println(e.getMessage());
      return 1;
    } catch (MalformedHeaderException | IOException e) {
      spec.commandLine().getErr().println(file + ": " + e.getMessage());
      return 1;
    }
  }
}
