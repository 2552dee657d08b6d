package io.secio.libp2p;

import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import io.secio.testing.NodeScript;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The real js-libp2p 0.29.4 node of secio-netty's interop tests ({@code
 * ../secio-netty/src/test/js/libp2p-node.js}, its README lists the modes and flags) as a child
 * process. Its stdout JSON lines are {@link #next events}; stderr is kept for failure messages.
 * {@link #close()} ends its stdin (a listener exits, a {@code --hold} dialer hangs up and exits) and
 * kills it if it lingers a few seconds. Not thread-safe: one test thread drives a node.
 */
final class JsNode implements AutoCloseable {
  private static final long WAIT_MINUTES = JavaNodes.WAIT_MINUTES;
  static final Path DIR = Paths.get(System.getProperty("basedir", ""), "..", "secio-netty", "src", "test", "js")
      .toAbsolutePath().normalize();

  private final String name;
  private final Process process;
  private final BlockingQueue<JsonObject> events = new LinkedBlockingQueue<>();
  private final StringBuffer stderr = new StringBuffer();

  private JsNode(String name, List<String> args) throws IOException {
    this.name = name;
    Path node = NodeScript.requireInstalled(DIR, "libp2p");
    List<String> command = new ArrayList<>(List.of(node.toString(), DIR.resolve("libp2p-node.js").toString()));
    command.addAll(args);
    process = new ProcessBuilder(command).directory(DIR.toFile()).start();
    pump(process.getInputStream(), true);
    pump(process.getErrorStream(), false);
  }

  /** Runs {@code node libp2p-node.js args...} (aborting the test as {@link #requireInstalled} does). */
  static JsNode start(String... args) throws IOException {
    return new JsNode("libp2p-node.js " + String.join(" ", args), List.of(args));
  }

  /**
   * Aborts the calling test without node or the npm packages of {@link #DIR}, and fails it instead
   * under {@code CI=true}.
   */
  static void requireInstalled() {
    NodeScript.requireInstalled(DIR, "libp2p");
  }

  private void pump(InputStream in, boolean stdout) {
    Thread t = new Thread(() -> {
      try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
        for (String line; (line = reader.readLine()) != null; ) {
          if (stdout) {
            events.add(parse(line));
          } else {
            stderr.append(line).append('\n');
          }
        }
      } catch (IOException e) {
        // the process ended: what came so far is all there is
      }
    }, name + (stdout ? " stdout" : " stderr"));
    t.setDaemon(true);
    t.start();
  }

  private static JsonObject parse(String line) {
    try {
      return JsonParser.parseString(line).getAsJsonObject();
    } catch (JsonParseException | IllegalStateException e) {
      JsonObject raw = new JsonObject();
      raw.addProperty("event", "unparsed");
      raw.addProperty("line", line);
      return raw;
    }
  }

  /** The next event, which must be of kind {@code expected}. */
  JsonObject next(String expected) {
    JsonObject event;
    try {
      event = events.poll(WAIT_MINUTES, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
    if (event == null) {
      throw new AssertionError(name + ": hang guard, no '" + expected + "' in " + WAIT_MINUTES + " minutes\n" + stderr);
    }
    if (!event.get("event").getAsString().equals(expected)) {
      throw new AssertionError(name + ": expected '" + expected + "', got " + event + "\n" + stderr);
    }
    return event;
  }

  /** Ends stdin and waits for the exit; returns the exit code. */
  int exit() throws IOException, InterruptedException {
    process.getOutputStream().close();
    if (!process.waitFor(WAIT_MINUTES, TimeUnit.MINUTES)) {
      throw new AssertionError(name + ": hang guard, still running " + WAIT_MINUTES + " minutes after its stdin ended");
    }
    return process.exitValue();
  }

  /** What it wrote on stderr so far, for failure messages. */
  String stderr() {
    return stderr.toString();
  }

  @Override
  public void close() throws IOException, InterruptedException {
    try {
      process.getOutputStream().close();
    } finally {
      // After a passing test it has exited already; after a failing one, it is not waited for long.
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(WAIT_MINUTES, TimeUnit.MINUTES);
      }
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
