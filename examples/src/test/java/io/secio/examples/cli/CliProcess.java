package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A child process, usually {@code java -jar secio.jar ...}, whose stdout and stderr are read line by
 * line as they come. Every wait has a deadline and fails the test with everything the process
 * printed; {@link #close()} destroys the process, so use it in try-with-resources.
 */
final class CliProcess implements AutoCloseable {
  /**
   * Bounds every wait for a line or an exit: a hang guard, never a speed check (a busy CI machine
   * can take tens of seconds for what takes one here).
   */
  static final Duration WAIT = Duration.ofMinutes(5);

  /**
   * JVM flags for the child processes: the tests move little data, so a JVM that starts fast (no C2
   * compiler, one GC thread) beats one that runs fast. The jar's behaviour does not depend on them.
   */
  private static final List<String> JVM_FLAGS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

  private final List<String> command;
  private final Process process;
  private final Stream out;
  private final Stream err;

  /**
   * The handshake timeout of every {@code secio} the tests start (through the environment variable
   * that sets the default of {@code --handshake-timeout}): a fresh JVM's first handshake also
   * self-tests the crypto backends, and on a busy machine that outlasts the default 10 s.
   */
  static final String HANDSHAKE_TIMEOUT = "5m";

  private CliProcess(List<String> command) throws IOException {
    this.command = command;
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("SECIO_HANDSHAKE_TIMEOUT", HANDSHAKE_TIMEOUT);
    this.process = builder.start();
    this.out = new Stream(process.getInputStream(), "stdout");
    this.err = new Stream(process.getErrorStream(), "stderr");
  }

  /** Starts {@code java -jar secio.jar args...}. */
  static CliProcess secio(String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(JVM_FLAGS);
    command.add("-jar");
    command.add(jar().toString());
    command.addAll(List.of(args));
    return new CliProcess(command);
  }

  /** Starts any command. */
  static CliProcess start(List<String> command) throws IOException {
    return new CliProcess(List.copyOf(command));
  }

  /** The jar under test: the {@code secio.jar} system property, or the module's target directory. */
  static Path jar() {
    Path jar = Path.of(System.getProperty("secio.jar", "target/secio.jar"));
    if (!Files.isRegularFile(jar)) {
      fail("no " + jar.toAbsolutePath() + ": build it with `mvn package` first");
    }
    return jar;
  }

  /** Waits for a stdout line matching {@code pattern} (skipping others) and returns its match. */
  Matcher awaitOut(String pattern) {
    return out.await(Pattern.compile(pattern));
  }

  /** Waits until {@code times} stdout lines match {@code pattern} (others skipped); returns the last match. */
  Matcher awaitOut(String pattern, int times) {
    return out.await(Pattern.compile(pattern), times);
  }

  /** Waits for a stderr line matching {@code pattern} (skipping others) and returns its match. */
  Matcher awaitErr(String pattern) {
    return err.await(Pattern.compile(pattern));
  }

  /** Waits until {@code times} stderr lines match {@code pattern} (others skipped); returns the last match. */
  Matcher awaitErr(String pattern, int times) {
    return err.await(Pattern.compile(pattern), times);
  }

  /** The process's stdin. */
  OutputStream stdin() {
    return process.getOutputStream();
  }

  /** Writes {@code text} to stdin and closes it. */
  void send(String text) throws IOException {
    try (OutputStream stdin = process.getOutputStream()) {
      stdin.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  /** Waits for the process to exit and for its output to end; returns the exit code. */
  int awaitExit() throws InterruptedException {
    if (!process.waitFor(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
      fail("still running after " + WAIT + ": " + this);
    }
    out.awaitEnd();
    err.awaitEnd();
    return process.exitValue();
  }

  /** Every stdout line so far. */
  List<String> outLines() {
    return out.lines();
  }

  /** Every stderr line so far. */
  List<String> errLines() {
    return err.lines();
  }

  /** Stops the process: politely first (its shutdown hooks run), then by force after 5 s. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return String.join(" ", command) + "\n--- stdout\n" + String.join("\n", out.lines())
        + "\n--- stderr\n" + String.join("\n", err.lines());
  }

  /**
   * One output stream of the process, read into a log by a daemon thread. A wait looks at every line
   * since the start, so waits may come in any order and lines of concurrent peers may interleave.
   */
  private final class Stream {
    private final List<String> log = new ArrayList<>();
    private final String name;
    private boolean ended;

    Stream(InputStream in, String name) {
      this.name = name;
      Thread reader = new Thread(() -> read(in), "read " + name);
      reader.setDaemon(true);
      reader.start();
    }

    private void read(InputStream in) {
      try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
        String line;
        while ((line = reader.readLine()) != null) {
          synchronized (this) {
            log.add(line);
            notifyAll();
          }
        }
      } catch (IOException e) {
        // The process was destroyed while we read: its output ends here.
      } finally {
        synchronized (this) {
          ended = true;
          notifyAll();
        }
      }
    }

    synchronized Matcher await(Pattern pattern) {
      return await(pattern, 1);
    }

    synchronized Matcher await(Pattern pattern, int times) {
      long deadline = System.nanoTime() + WAIT.toNanos();
      int checked = 0;
      int matched = 0;
      String what = (times == 1 ? "a line" : times + " lines") + " matching /" + pattern + "/";
      for (;;) {
        for (; checked < log.size(); checked++) {
          Matcher matcher = pattern.matcher(log.get(checked));
          if (matcher.matches() && ++matched == times) {
            return matcher;
          }
        }
        if (ended) {
          fail(name + " ended without " + what + ": " + CliProcess.this);
        }
        waitUntil(deadline, what);
      }
    }

    synchronized void awaitEnd() {
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (!ended) {
        waitUntil(deadline, "the end of " + name);
      }
    }

    private void waitUntil(long deadline, String what) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        fail("no " + what + " on " + name + " within " + WAIT + ": " + CliProcess.this);
      }
      try {
        TimeUnit.NANOSECONDS.timedWait(this, left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        fail("interrupted waiting for " + what);
      }
    }

    synchronized List<String> lines() {
      return List.copyOf(log);
    }
  }
}
