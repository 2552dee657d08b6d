package io.secio.examples.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The {@code secio} command: {@code keygen}, {@code id}, {@code listen}, {@code dial}, {@code bench},
 * {@code demo}, {@code bridge} and {@code ckb}. Exit codes: 0 success, 1 a failure at run time (with a one-line
 * reason), 2 bad arguments (with a one-line error).
 *
 * <p>Commands write through the streams given to the constructor, so a test can run them in process.
 * One instance runs one command line.
 */
@Command(
    name = "secio",
    mixinStandardHelpOptions = true,
    versionProvider = SecioCli.Version.class,
    description = {
        "libp2p secio secure channels: v0.1 (AES-CTR + HMAC) and v0.2 (AEAD).",
        "Exit codes: 0 done, 1 failed (one-line reason), 2 bad arguments."},
    subcommands = {
        KeygenCommand.class,
        IdCommand.class,
        ListenCommand.class,
        DialCommand.class,
        BenchCommand.class,
        DemoCommand.class,
        BridgeCommand.class,
        CkbCommand.class,
    })
public final class SecioCli implements Callable<Integer> {
  /** Exit code of a failure at run time. */
  public static final int EXIT_FAILURE = 1;
  /** Exit code of bad arguments. */
  public static final int EXIT_USAGE = 2;

  private final PrintStream out;
  private final PrintStream err;
  private final InputStream in;
  private final boolean terminal;

  @Spec
  private CommandSpec spec;

  /** A command line on these streams, which are not a terminal. */
  public SecioCli(PrintStream out, PrintStream err, InputStream in) {
    this(out, err, in, false);
  }

  /** A command line on these streams; on a {@code terminal} long transfers show a progress bar. */
  public SecioCli(PrintStream out, PrintStream err, InputStream in, boolean terminal) {
    this.out = out;
    this.err = err;
    this.in = in;
    this.terminal = terminal;
  }

  public static void main(String[] args) {
    System.exit(run(new SecioCli(System.out, System.err, System.in, System.console() != null), args));
  }

  /** Runs one command line and returns its exit code. */
  public static int run(SecioCli cli, String... args) {
    CommandLine commandLine = new CommandLine(cli)
        .setOut(new PrintWriter(cli.out, true, StandardCharsets.UTF_8))
        .setErr(new PrintWriter(cli.err, true, StandardCharsets.UTF_8))
        .setParameterExceptionHandler(SecioCli::usageError)
        .setExecutionExceptionHandler((e, cmd, parsed) -> {
          // Unexpected: still one line, not a stack trace, for a user of the tool.
          cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": " + Report.reason(e));
          return EXIT_FAILURE;
        });
    return commandLine.execute(args);
  }

  private static int usageError(ParameterException e, String[] args) {
    CommandLine cmd = e.getCommandLine();
    String message = e.getMessage() == null ? "bad arguments" : e.getMessage().strip();
    // picocli messages may span lines; the user gets one line and where to look for more.
    message = message.replaceAll("\\s*\\R\\s*", " ");
    cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": " + message
        + " (see '" + cmd.getCommandSpec().qualifiedName() + " --help')");
    return EXIT_USAGE;
  }

  @Override
  public Integer call() {
    throw new ParameterException(spec.commandLine(), "missing command");
  }

  /**
   * Prints a failure of {@code command} (bad arguments aside, which picocli reports) as every error
   * of this tool reads: {@code secio COMMAND: message}.
   */
  void error(CommandSpec command, String message) {
    err.println(command.qualifiedName() + ": " + message);
  }

  PrintStream out() {
    return out;
  }

  PrintStream err() {
    return err;
  }

  InputStream in() {
    return in;
  }

  boolean isTerminal() {
    return terminal;
  }

  /** The version from the runnable jar's manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = SecioCli.class.getPackage().getImplementationVersion();
      return new String[] {"secio " + (version == null ? "(development build)" : version)};
    }
  }
}
