package io.secio.netty.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
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
 * A js-libp2p-secio 0.13.1 peer ({@code src/test/js/secio-peer.js}) running as a child process. Its
 * stdout JSON lines become {@link #next events}; stderr is kept for failure messages. Every secio peer
 * runs with {@code --report-secret-prefix}, so {@code secured} events carry {@code secretBytes} and
 * {@code secretLeadingZero}. The same wrapper runs a whole js-libp2p node ({@code libp2p-node.js}) for
 * the multistream tests. {@link #close()} closes its stdin (a listener exits on that) and kills
 * the process if it is still running. Not thread-safe: one test thread uses a peer.
 */
final class JsPeer implements AutoCloseable {
  static final long WAIT_SECONDS = 300;
  private static final Path DIR = Paths.get(System.getProperty("basedir", ""), "src", "test", "js").toAbsolutePath();
  private static final String EOF = "eof";
  private static boolean toldSkipped;

  private final String name;
  private final boolean listener;
  private final Process process;
  private final BlockingQueue<JsonObject> events = new LinkedBlockingQueue<>();
  private final StringBuffer stderr = new StringBuffer();
  private final Thread stdoutReader;
  /** A listener's port and peer id, from its {@code listening} line. */
  private int port;
  private String peerId;

  private JsPeer(String name, boolean listener, List<String> args) throws IOException {
    this(name, listener, "secio-peer.js", withSecretPrefix(args));
  }

  private static List<String> withSecretPrefix(List<String> args) {
    List<String> all = new ArrayList<>(args);
    all.add("--report-secret-prefix");
    return all;
  }

  private JsPeer(String name, boolean listener, String script, List<String> args) throws IOException {
    this.name = name;
    this.listener = listener;
    List<String> command = new ArrayList<>();
    command.add(node().toString());
    command.add(DIR.resolve(script).toString());
    command.addAll(args);
    process = new ProcessBuilder(command).directory(DIR.toFile()).start();
    stdoutReader = reader(process.getInputStream(), line -> events.add(parse(line)), "stdout");
    reader(process.getErrorStream(), line -> stderr.append(line).append('\n'), "stderr");
  }

  /** A listener of this key type that echoes; returns once it printed its {@code listening} line. */
  static JsPeer listen(String keyType, String... options) throws IOException {
    List<String> args = new ArrayList<>(List.of("listen", "--key-type", keyType));
    args.addAll(List.of(options));
    return listening(new JsPeer("js listener " + keyType + " " + String.join(" ", options), true, args));
  }

  /** {@code peer} once it printed its {@code listening} line; closed if it did not. */
  private static JsPeer listening(JsPeer peer) {
    try {
      peer.next("listening");
    } catch (Throwable t) {
      peer.close();
      throw t;
    }
    return peer;
  }

  /**
   * A real js-libp2p node ({@code src/test/js/libp2p-node.js}: TCP, secio, mplex) of this key type
   * that listens on loopback; returns once it printed its {@code listening} line.
   */
  static JsPeer libp2pListener(String keyType) throws IOException {
    return listening(new JsPeer("libp2p node " + keyType, true, "libp2p-node.js",
        List.of("listen", "--key-type", keyType)));
  }

  /** A real js-libp2p node of this key type that dials each of {@code multiaddrs}, {@code count} times. */
  static JsPeer libp2pDialer(String keyType, List<String> multiaddrs, int count) throws IOException {
    return new JsPeer("libp2p dialer " + keyType, false, "libp2p-node.js", List.of("dial", "--key-type", keyType,
        "--to", String.join(",", multiaddrs), "--count", Integer.toString(count)));
  }

  /** A dialer of this key type to 127.0.0.1:{@code port}. */
  static JsPeer dial(int port, String keyType, String... options) throws IOException {
    List<String> args = new ArrayList<>(List.of("dial", "--port", Integer.toString(port), "--key-type", keyType));
    args.addAll(List.of(options));
    return new JsPeer("js dialer " + keyType + " " + String.join(" ", options), false, args);
  }

  /**
   * Aborts the calling test unless node and the peer's npm packages are installed; with CI=true
   * it fails instead, because a CI run must not quietly skip the interop tests.
   */
  static synchronized void requireInstalled() {
    String missing = node() == null
        ? "`node` is not on the PATH"
        : !Files.isDirectory(DIR.resolve("node_modules/libp2p-secio")) || !Files.isDirectory(DIR.resolve("node_modules/libp2p"))
            ? "the js peer's packages are missing: run npm ci --prefix secio-netty/src/test/js --no-audit --no-fund --ignore-scripts"
            : null;
    if (missing == null) {
      return;
    }
    if ("true".equals(System.getenv("CI"))) {
      fail("js-libp2p-secio interop cannot run (CI=true): " + missing);
    }
    if (!toldSkipped) {
      toldSkipped = true;
      System.out.println("SKIPPED js-libp2p-secio interop tests: " + missing);
    }
    Assumptions.abort(missing);
  }

  private static Path node() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      Path candidate = Paths.get(dir.isEmpty() ? "." : dir, "node");
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return candidate.toAbsolutePath();
      }
    }
    return null;
  }

  int port() {
    return port;
  }

  String peerId() {
    return peerId;
  }

  /** The next event, which must be {@code expected}; {@code closed} events are skipped unless expected. */
  JsonObject next(String expected) {
    for (;;) {
      JsonObject event;
      try {
        event = events.poll(WAIT_SECONDS, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
      if (event == null) {
        throw new AssertionError(this + ": no '" + expected + "' event in " + WAIT_SECONDS + " s" + stderrText());
      }
      String kind = event.get("event").getAsString();
      if (kind.equals("closed") && !expected.equals("closed")) {
        continue;
      }
      if (!kind.equals(expected)) {
        throw new AssertionError(this + ": expected '" + expected + "', got " + event + stderrText());
      }
      if (kind.equals("listening")) {
        port = event.get("port").getAsInt();
        peerId = event.get("peerId").getAsString();
      }
      return event;
    }
  }

  /** Waits for the process to exit and returns its exit code. */
  int exitCode() throws InterruptedException {
    if (!process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)) {
      throw new AssertionError(this + " still running after " + WAIT_SECONDS + " s" + stderrText());
    }
    stdoutReader.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
    return process.exitValue();
  }

  /** Waits for a clean exit with nothing left unread but {@code closed} events. */
  void assertExitedCleanly() throws InterruptedException {
    assertEquals(0, exitCode(), this + " exit code" + stderrText());
    for (JsonObject event : events) {
      String kind = event.get("event").getAsString();
      if (!kind.equals("closed") && !kind.equals(EOF)) {
        fail(this + ": unexpected " + event);
      }
    }
  }

  private String stderrText() {
    return stderr.length() == 0 ? "" : "\nstderr of " + name + ":\n" + stderr;
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

  private Thread reader(InputStream in, java.util.function.Consumer<String> sink, String stream) {
    Thread t = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
        for (String line; (line = r.readLine()) != null; ) {
          sink.accept(line);
        }
      } catch (IOException e) {
        // the process was killed; what was read so far is all there is
      }
      if (stream.equals("stdout")) {
        JsonObject eof = new JsonObject();
        eof.addProperty("event", EOF);
        events.add(eof);
      }
    }, name + " " + stream);
    t.setDaemon(true);
    t.start();
    return t;
  }

  @Override
  public void close() {
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      try {
        if (!listener) {
          process.destroy(); // a dialer still running here is a failed test: do not wait for it
        }
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
