package io.secio.streams.yamux;

import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A script of secio-streams' {@code src/test/js} as a child process on one TCP connection: {@code
 * yamux-peer.js} (one npm yamux implementation) here, {@code yamux-multistream-peer.js} for
 * secio-libp2p's tests (which find the directory from their own module's, its sibling), or a script
 * of another module's js folder ({@link #start}). Its stdout
 * JSON lines are {@link #next events}; {@link #send} writes a command line; {@link #close()} ends its
 * stdin (the peer closes its session and exits) and kills it if it lingers. Not thread-safe: one test
 * thread drives a peer.
 */
public final class NodePeer implements AutoCloseable {
  public static final long WAIT_MINUTES = 5;
  private static final Path DIR = Paths.get(System.getProperty("basedir", "")).toAbsolutePath()
      .resolveSibling("secio-streams").resolve(Paths.get("src", "test", "js"));

  private final String name;
  private final Process process;
  private final BlockingQueue<JsonObject> events = new LinkedBlockingQueue<>();
  private final StringBuffer stderr = new StringBuffer();
  private int port;

  private NodePeer(Path dir, String script, String name, List<String> args) throws IOException {
    this.name = name;
    List<String> command = new ArrayList<>(List.of("node", dir.resolve(script).toString()));
    command.addAll(args);
    process = new ProcessBuilder(command).directory(dir.toFile()).start();
    pump(new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)), true);
    pump(new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8)), false);
  }

  /** A yamux-peer.js of {@code impl} listening on loopback, once it said so. */
  static NodePeer listen(String impl) throws IOException {
    return listen("yamux-peer.js", impl + " listener", "--impl", impl);
  }

  /** A yamux-peer.js of {@code impl} dialing 127.0.0.1:{@code port}, once connected. */
  static NodePeer dial(String impl, int port) throws IOException {
    return dial("yamux-peer.js", impl + " dialer", port, "--impl", impl);
  }

  /**
   * {@code script} of another module's js folder, {@code dir}, with {@code args}, as it starts: its
   * first event is the test's to read.
   */
  public static NodePeer start(Path dir, String script, String name, List<String> args) throws IOException {
    return new NodePeer(dir, script, name, args);
  }

  /** {@code script} with {@code args} and {@code listen}, once it said it listens on loopback. */
  public static NodePeer listen(String script, String name, String... args) throws IOException {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("listen");
    NodePeer peer = new NodePeer(DIR, script, name, all);
    peer.port = peer.next("listening").get("port").getAsInt();
    return peer;
  }

  /** {@code script} with {@code args} dialing 127.0.0.1:{@code port}, once it said it connected. */
  public static NodePeer dial(String script, String name, int port, String... args) throws IOException {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("dial", "--port", Integer.toString(port)));
    NodePeer peer = new NodePeer(DIR, script, name, all);
    peer.next("connected");
    return peer;
  }

  /** Aborts the test without node or yamux-peer.js's npm packages, and fails it instead under CI=true. */
  static void requireInstalled() {
    requireInstalled("yamux-js", "@chainsafe/libp2p-yamux");
  }

  /** Aborts the test without node or {@code packages}, and fails it instead under CI=true. */
  public static void requireInstalled(String... packages) {
    String missing = null;
    for (String p : packages) {
      if (missing == null && !Files.isDirectory(DIR.resolve("node_modules").resolve(p))) {
        missing = "npm package " + p + " is missing: npm ci --prefix secio-streams/src/test/js";
      }
    }
    if (missing == null) {
      try {
        if (new ProcessBuilder("node", "--version").start().waitFor() != 0) {
          missing = "node does not run";
        }
      } catch (IOException | InterruptedException e) {
        missing = "no node on the PATH";
      }
    }
    if (missing != null) {
      if ("true".equals(System.getenv("CI"))) {
        fail("the npm interop cannot run (CI=true): " + missing);
      }
      Assumptions.abort(missing);
    }
  }

  private void pump(BufferedReader reader, boolean stdout) {
    Thread t = new Thread(() -> {
      try (reader) {
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

  /** A line that is not a JSON object becomes an {@code unparsed} event holding it. */
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

  /** A listener's port. */
  public int port() {
    return port;
  }

  /** The next event, which must be of kind {@code expected}. */
  public JsonObject next(String expected) {
    JsonObject event;
    try {
      event = events.poll(WAIT_MINUTES, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
    if (event == null) {
      throw new AssertionError(name + ": no '" + expected + "' in " + WAIT_MINUTES + " minutes\n" + stderr);
    }
    if (!event.get("event").getAsString().equals(expected)) {
      throw new AssertionError(name + ": expected '" + expected + "', got " + event + "\n" + stderr);
    }
    return event;
  }

  /** Writes {@code json} as one command line. */
  public void send(String json) throws IOException {
    OutputStream in = process.getOutputStream();
    in.write((json + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  /** Ends stdin and waits for the exit; returns the exit code. */
  public int exit() throws IOException, InterruptedException {
    process.getOutputStream().close();
    if (!process.waitFor(WAIT_MINUTES, TimeUnit.MINUTES)) {
      throw new AssertionError(name + ": hang guard, still running " + WAIT_MINUTES + " minutes after its stdin ended");
    }
    return process.exitValue();
  }

  /** What it wrote on stderr so far, for failure messages. */
  public String stderr() {
    return stderr.toString();
  }

  @Override
  public void close() throws IOException, InterruptedException {
    try {
      process.getOutputStream().close();
    } finally {
      if (!process.waitFor(WAIT_MINUTES, TimeUnit.MINUTES)) {
        process.destroyForcibly().waitFor(1, TimeUnit.MINUTES);
      }
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
