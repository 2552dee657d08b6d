package io.secio.examples.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code secio ckb}: a peer on a Nervos CKB network, speaking CKB's own protocols over a tentacle
 * session: {@code crawl} a node, or {@code listen} for peers; {@code verify-headers} checks headers
 * from a file. Exit codes as every command: 0 done, 1
 * failed (one-line reason), 2 bad arguments.
 */
@Command(name = "ckb", mixinStandardHelpOptions = true,
    description = {"A Nervos CKB peer: identify, ping, discovery, sync (InIBD) and the disconnect message;",
        "verify-headers checks a file of headers.",
        "Exit codes: 0 done, 1 failed (one-line reason), 2 bad arguments."},
    subcommands = {CrawlCommand.class, CkbListenCommand.class, VerifyHeadersCommand.class})
public final class CkbCommand implements Callable<Integer> {
  @Spec
  private CommandSpec spec;

  /** For picocli. */
  public CkbCommand() {}

  @Override
  public Integer call() {
    throw new ParameterException(spec.commandLine(), "missing command: crawl, listen or verify-headers");
  }
}
