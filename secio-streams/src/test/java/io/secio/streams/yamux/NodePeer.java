package io.secio.streams.yamux;

import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonObject;
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
 * {@code src/test/js/yamux-peer.js} as a child process: one npm yamux implementation on one TCP
 * connection. Its stdout JSON lines are {@link #next events}; {@link #send} writes a command line;
 * {@link #close()} ends its stdin (the peer closes its session and exits) and kills it if it lingers.
 * Not thread-safe: one test thread drives a peer.
 */
final class NodePeer implements AutoCloseable {
  static final long WAIT_MINUTES = 5;
  private static final Path DIR = Paths.get(System.getProperty("basedir", ""), "src", "test", "js").toAbsolutePath();

  private final String name;
  private final Process process;
  private final BlockingQueue<JsonObject> events = new LinkedBlockingQueue<>();
  private final StringBuffer stderr = new StringBuffer();
  private int port;

  private NodePeer(String name, List<String> args) throws IOException {
    this.name = name;
    List<String> command = new ArrayList<>(List.of("node", DIR.resolve("yamux-peer.js").toString()));
    command.addAll(args);
    process = new ProcessBuilder(command).directory(DIR.toFile()).start();
    pump(new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)), true);
    pump(new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8)), false);
  }

  /** A peer of {@code impl} listening on loopback, once it said so. */
  static NodePeer listen(String impl) throws IOException {
    NodePeer peer = new NodePeer(impl + " listener", List.of("--impl", impl, "listen"));
    peer.port = peer.next("listening").get("port").getAsInt();
    return peer;
  }

  /** A peer of {@code impl} dialing 127.0.0.1:{@code port}, once connected. */
  static NodePeer dial(String impl, int port) throws IOException {
    NodePeer peer = new NodePeer(impl + " dialer", List.of("--impl", impl, "dial", "--port", Integer.toString(port)));
    peer.next("connected");
    return peer;
  }

  /** Aborts the test without node or the npm packages, and fails it instead under CI=true. */
  static void requireInstalled() {
    String missing = !Files.isDirectory(DIR.resolve("node_modules/yamux-js"))
        || !Files.isDirectory(DIR.resolve("node_modules/@chainsafe/libp2p-yamux"))
        ? "the yamux peers' packages are missing: npm ci --prefix secio-streams/src/test/js" : null;
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
        fail("the npm yamux interop cannot run (CI=true): " + missing);
      }
      Assumptions.abort(missing);
    }
  }

  private void pump(BufferedReader reader, boolean stdout) {
    Thread t = new Thread(() -> {
      try (reader) {
        for (String line; (line = reader.readLine()) != null; ) {
          if (stdout) {
            events.add(JsonParser.parseString(line).getAsJsonObject());
          } else {
            stderr.append(line).append('\n');
          }
        }
      } catch (IOException | RuntimeException e) {
        // the process ended or printed something else: what came so far is all there is
      }
    }, name + (stdout ? " stdout" : " stderr"));
    t.setDaemon(true);
    t.start();
  }


  /** A listener's port. */
  int port() {
    return port;
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
      throw new AssertionError(name + ": no '" + expected + "' in " + WAIT_MINUTES + " minutes\n" + stderr);
    }
    if (!event.get("event").getAsString().equals(expected)) {
      throw new AssertionError(name + ": expected '" + expected + "', got " + event + "\n" + stderr);
    }
    return event;
  }

  void send(String json) throws IOException {
    OutputStream in = process.getOutputStream();
    in.write((json + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
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
