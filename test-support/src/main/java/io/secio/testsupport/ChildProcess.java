package io.secio.testsupport;

import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A child process of a test (a node.js script, {@code java -jar secio.jar}, any command) whose stdout
 * and stderr are read line by line as they come. Two ways to read stdout: {@link #awaitOut} searches
 * every line since the start for a pattern, so waits may come in any order; {@link #next} takes the
 * lines in order as JSON events ({@code {"event":"listening",...}}), as the node.js scripts print
 * them. Every wait has a deadline, {@link #WAIT}, a hang guard and never a speed check, and fails the
 * test with everything the process printed. {@link #close()} stops the process, so use it in
 * try-with-resources. Its methods may be called from any thread; one test thread drives a process.
 */
public final class ChildProcess implements AutoCloseable {
  /**
   * Bounds every wait for a line or an exit: a busy CI machine can take tens of seconds for what takes
   * one here.
   */
  public static final Duration WAIT = Duration.ofMinutes(5);
  /** How long {@link #close()} lets a stopped process end its own way before killing it. */
  private static final Duration GRACE = Duration.ofSeconds(5);

  private final String name;
  private final List<String> command;
  private final Process process;
  private final Lines out;
  private final Lines err;
  /** The first stdout line {@link #next} has not taken yet. */
  private int nextEvent;

  private ChildProcess(String name, List<String> command, Path directory, Map<String, String> environment)
      throws IOException {
    this.name = name;
    this.command = List.copyOf(command);
    ProcessBuilder builder = new ProcessBuilder(this.command);
    if (directory != null) {
      builder.directory(directory.toFile());
    }
    builder.environment().putAll(environment);
    this.process = builder.start();
    this.out = new Lines(process.getInputStream(), "stdout");
    this.err = new Lines(process.getErrorStream(), "stderr");
  }

  /** Starts {@code command} in this directory and environment. */
  public static ChildProcess start(List<String> command) throws IOException {
    return new ChildProcess(String.join(" ", command), command, null, Map.of());
  }

  /**
   * Starts {@code command}, named {@code name} in failure messages.
   *
   * @param directory its working directory; null for this one
   * @param environment added to this process's environment
   */
  public static ChildProcess start(String name, List<String> command, Path directory, Map<String, String> environment)
      throws IOException {
    return new ChildProcess(name, command, directory, environment);
  }

  /** Waits for a stdout line matching {@code pattern} (skipping others) and returns its match. */
  public Matcher awaitOut(String pattern) {
    return out.await(Pattern.compile(pattern), 1);
  }

  /** Waits until {@code times} stdout lines match {@code pattern} (others skipped); returns the last match. */
  public Matcher awaitOut(String pattern, int times) {
    return out.await(Pattern.compile(pattern), times);
  }

  /** Waits for a stderr line matching {@code pattern} (skipping others) and returns its match. */
  public Matcher awaitErr(String pattern) {
    return err.await(Pattern.compile(pattern), 1);
  }

  /** Waits until {@code times} stderr lines match {@code pattern} (others skipped); returns the last match. */
  public Matcher awaitErr(String pattern, int times) {
    return err.await(Pattern.compile(pattern), times);
  }

  /**
   * The next stdout line as a JSON event, which must be of kind {@code expected}; events of a kind in
   * {@code skipped} before it are passed over. A line that is not a JSON object is an {@code
   * unparsed} event holding it.
   */
  public JsonObject next(String expected, String... skipped) {
    Set<String> skip = Set.of(skipped);
    for (;;) {
      String line = out.lineAt(nextEvent, "a '" + expected + "' event");
      nextEvent++;
      JsonObject event = event(line);
      String kind = event.get("event").getAsString();
      if (kind.equals(expected)) {
        return event;
      }
      if (!skip.contains(kind)) {
        fail(name + ": expected a '" + expected + "' event, got " + event + "\n" + this);
      }
    }
  }

  /** The stdout lines {@link #next} has not taken yet, as events; call it once the process exited. */
  public List<JsonObject> eventsLeft() {
    List<JsonObject> left = new ArrayList<>();
    List<String> lines = out.lines();
    for (int i = nextEvent; i < lines.size(); i++) {
      left.add(event(lines.get(i)));
    }
    return left;
  }

  private static JsonObject event(String line) {
    try {
      JsonObject event = JsonParser.parseString(line).getAsJsonObject();
      if (event.has("event")) {
        return event;
      }
    } catch (JsonParseException | IllegalStateException e) {
      // not JSON: kept as it is below
    }
    JsonObject raw = new JsonObject();
    raw.addProperty("event", "unparsed");
    raw.addProperty("line", line);
    return raw;
  }

  /** The process's stdin. */
  public OutputStream stdin() {
    return process.getOutputStream();
  }

  /** Writes {@code line} and a newline to stdin, and flushes it. */
  public void writeLine(String line) throws IOException {
    OutputStream in = process.getOutputStream();
    in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  /** Writes {@code text} to stdin and closes it. */
  public void send(String text) throws IOException {
    try (OutputStream in = process.getOutputStream()) {
      in.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  /** Closes stdin (a node.js peer of the tests ends on that) and returns {@link #awaitExit()}. */
  public int exit() throws IOException, InterruptedException {
    process.getOutputStream().close();
    return awaitExit();
  }

  /** Waits for the process to exit and for its output to end; returns the exit code. */
  public int awaitExit() throws InterruptedException {
    if (!process.waitFor(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
      fail("hang guard: still running after " + WAIT + ": " + this);
    }
    out.awaitEnd();
    err.awaitEnd();
    return process.exitValue();
  }

  /** Every stdout line so far. */
  public List<String> outLines() {
    return out.lines();
  }

  /** Every stderr line so far. */
  public List<String> errLines() {
    return err.lines();
  }

  /** Stops the process: politely first (its shutdown hooks run), then by force after a few seconds. */
  @Override
  public void close() {
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      process.destroy();
      try {
        if (!process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
          process.destroyForcibly().waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS);
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public String toString() {
    return name + (name.equals(String.join(" ", command)) ? "" : " (" + String.join(" ", command) + ")")
        + "\n--- stdout\n" + String.join("\n", out.lines()) + "\n--- stderr\n" + String.join("\n", err.lines());
  }

  /**
   * One output stream of the process, read into a log by a daemon thread. Waits look at the log, so
   * lines of concurrent peers may interleave and no line is lost to a wait that skipped it.
   */
  private final class Lines {
    private final List<String> log = new ArrayList<>();
    private final String stream;
    private boolean ended;

    Lines(InputStream in, String stream) {
      this.stream = stream;
      Thread reader = new Thread(() -> read(in), name + " " + stream);
      reader.setDaemon(true);
      reader.start();
    }

    private void read(InputStream in) {
      try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
        for (String line; (line = reader.readLine()) != null; ) {
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

    synchronized Matcher await(Pattern pattern, int times) {
      long deadline = System.nanoTime() + WAIT.toNanos();
      String what = (times == 1 ? "a line" : times + " lines") + " matching /" + pattern + "/";
      int matched = 0;
      for (int checked = 0; ; ) {
        for (; checked < log.size(); checked++) {
          Matcher matcher = pattern.matcher(log.get(checked));
          if (matcher.matches() && ++matched == times) {
            return matcher;
          }
        }
        waitForMore(deadline, what);
      }
    }

    /** The line at {@code index}, once there is one. */
    synchronized String lineAt(int index, String what) {
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (log.size() <= index) {
        waitForMore(deadline, what);
      }
      return log.get(index);
    }

    synchronized void awaitEnd() {
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (!ended) {
        waitUntil(deadline, "the end of " + stream);
      }
    }

    private void waitForMore(long deadline, String what) {
      if (ended) {
        fail(stream + " ended without " + what + ": " + ChildProcess.this);
      }
      waitUntil(deadline, what);
    }

    private void waitUntil(long deadline, String what) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        fail("hang guard: no " + what + " on " + stream + " within " + WAIT + ": " + ChildProcess.this);
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
