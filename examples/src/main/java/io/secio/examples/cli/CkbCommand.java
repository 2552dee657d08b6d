package io.secio.examples.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code secio ckb}: a peer on a Nervos CKB network, speaking CKB's own protocols over a tentacle
 * session: {@code crawl} a node, or {@code listen} for peers; {@code follow} a node's header chain
 * into a store, ask a node for its {@code tip} as a light client; {@code verify-headers} checks
 * headers from a file. Exit codes as every command: 0 done, 1 failed (one-line reason), 2 bad
 * arguments.
 */
@Command(name = "ckb", mixinStandardHelpOptions = true,
    description = {"A Nervos CKB peer: identify, ping, discovery, sync, the disconnect message.",
        "follow syncs a node's headers into a store; tip asks a node for its tip as a",
        "light client; verify-headers checks a file of headers.",
        "Exit codes: 0 done, 1 failed (one-line reason), 2 bad arguments."},
    subcommands = {CrawlCommand.class, CkbListenCommand.class, FollowCommand.class, TipCommand.class,
        VerifyHeadersCommand.class})
public final class CkbCommand implements Callable<Integer> {
  @Spec
  private CommandSpec spec;
  @ParentCommand
  private SecioCli cli;

  /** For picocli. */
  public CkbCommand() {}

  /** The command line this runs in: its streams and whether they are a terminal. */
  SecioCli cli() {
    return cli;
  }

  @Override
  public Integer call() {
    throw new ParameterException(spec.commandLine(), "missing command: crawl, listen, follow, tip or verify-headers");
  }
}
