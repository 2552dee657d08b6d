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
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A child process of a test (a node.js script, {@code java -jar secio.jar}, any command) whose stdout
 * and stderr are read line by line as they come. Two ways to read stdout: {@link #awaitOut} searches
 * every line since the start for a pattern, so waits may come in any order; {@link #next} takes the
 * lines in order as JSON events ({@code {"event":"listening",...}}), as the node.js scripts print
 * them; {@link #awaitEvent} searches them from the start for an event. Every wait has a deadline,
 * {@link #WAIT}, a hang guard and never a speed check, and fails the test with what the process printed
 * (the last {@link #SHOWN_LINES} lines of each stream). {@link #close()} stops the process and whatever
 * it started, so use it in try-with-resources. Its methods may be called from any thread; one test
 * thread drives a process.
 */
public final class ChildProcess implements AutoCloseable {
  /**
   * Bounds every wait for a line or an exit: a busy CI machine can take tens of seconds for what takes
   * one here.
   */
  public static final Duration WAIT = Duration.ofMinutes(5);
  /** How long {@link #close()} lets a stopped process end its own way before killing it. */
  private static final Duration GRACE = Duration.ofSeconds(5);
  /** How many of a stream's last lines a failure shows: a chatty peer's whole log would bury the cause. */
  public static final int SHOWN_LINES = 500;

  /** A line the process printed, and when it came ({@link System#nanoTime()}). */
  public record Line(long nanos, String text) {
    /** This line as a JSON event, as {@link #next} reads it. */
    public JsonObject event() {
      return ChildProcess.event(text);
    }
  }

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
    return awaitOut(pattern, 1);
  }

  /** Waits until {@code times} stdout lines match {@code pattern} (others skipped); returns the last match. */
  public Matcher awaitOut(String pattern, int times) {
    return await(out, pattern, times);
  }

  /** Waits for a stderr line matching {@code pattern} (skipping others) and returns its match. */
  public Matcher awaitErr(String pattern) {
    return awaitErr(pattern, 1);
  }

  /** Waits until {@code times} stderr lines match {@code pattern} (others skipped); returns the last match. */
  public Matcher awaitErr(String pattern, int times) {
    return await(err, pattern, times);
  }

  private static Matcher await(Lines lines, String regex, int times) {
    Pattern pattern = Pattern.compile(regex);
    String what = (times == 1 ? "a line" : times + " lines") + " matching /" + pattern + "/";
    return lines.await(line -> {
      Matcher matcher = pattern.matcher(line.text());
      return matcher.matches() ? matcher : null;
    }, times, what);
  }

  /**
   * Waits for a stdout line that is a JSON event {@code match} accepts (see {@link #next}), searching
   * every line since the start as {@link #awaitOut} does, and returns that line.
   *
   * @param what the event waited for, as a failure names it
   */
  public Line awaitEvent(String what, Predicate<JsonObject> match) {
    return out.await(line -> match.test(line.event()) ? line : null, 1, what);
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
    List<String> lines = outLines();
    for (int i = nextEvent; i < lines.size(); i++) {
      left.add(event(lines.get(i)));
    }
    return left;
  }

  static JsonObject event(String line) {
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

  /** Writes {@code line} and a newline to stdin, and flushes it; lines of several threads stay whole. */
  public synchronized void writeLine(String line) throws IOException {
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
    return out.lines().stream().map(Line::text).toList();
  }

  /** Every stdout line so far, with when it came. */
  public List<Line> timedOutLines() {
    return out.lines();
  }

  /** Every stderr line so far. */
  public List<String> errLines() {
    return err.lines().stream().map(Line::text).toList();
  }

  /** The process, for a test that checks what it started (its descendants) or that they are gone. */
  public ProcessHandle toHandle() {
    return process.toHandle();
  }

  /**
   * Kills the process (SIGKILL: no shutdown hook runs, as in a crash) and waits for it and its output
   * to end; returns the exit code.
   */
  public int kill() throws InterruptedException {
    process.destroyForcibly();
    return awaitExit();
  }

  /** Stops the process, as {@link #stop} does, with a few seconds of grace. */
  @Override
  public void close() {
    stop(GRACE);
  }

  /**
   * Stops the process: closes its stdin and asks it to end (its shutdown hooks run, a node.js script
   * hears SIGTERM); kills it if it still runs after {@code grace}, and then kills whatever it started
   * that still runs (a browser in its own process group outlives its parent). An interrupt skips the
   * waiting, not the killing.
   */
  public void stop(Duration grace) {
    List<ProcessHandle> started = process.descendants().toList();
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      process.destroy();
      try {
        if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
          process.destroyForcibly().waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS);
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      } finally {
        started.forEach(ProcessHandle::destroyForcibly);
      }
    }
  }

  @Override
  public String toString() {
    return name + (name.equals(String.join(" ", command)) ? "" : " (" + String.join(" ", command) + ")")
        + "\n--- stdout" + shown(out.lines()) + "\n--- stderr" + shown(err.lines());
  }

  private static String shown(List<Line> lines) {
    StringBuilder shown = new StringBuilder();
    if (lines.size() > SHOWN_LINES) {
      shown.append("\n(").append(lines.size() - SHOWN_LINES).append(" earlier lines left out)");
    }
    lines.subList(Math.max(0, lines.size() - SHOWN_LINES), lines.size())
        .forEach(line -> shown.append('\n').append(line.text()));
    return shown.toString();
  }

  /**
   * One output stream of the process, read into a log by a daemon thread. Waits look at the log, so
   * lines of concurrent peers may interleave and no line is lost to a wait that skipped it.
   */
  private final class Lines {
    private final List<Line> log = new ArrayList<>();
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
            log.add(new Line(System.nanoTime(), line));
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

    /** The last of the first {@code times} lines that {@code match} maps to non-null, mapped. */
    synchronized <T> T await(Function<Line, T> match, int times, String what) {
      long deadline = System.nanoTime() + WAIT.toNanos();
      int matched = 0;
      for (int checked = 0; ; ) {
        for (; checked < log.size(); checked++) {
          T found = match.apply(log.get(checked));
          if (found != null && ++matched == times) {
            return found;
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
      return log.get(index).text();
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

    synchronized List<Line> lines() {
      return List.copyOf(log);
    }
  }
}
