package io.secio.netty.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonObject;
import io.secio.testsupport.ChildProcess;
import io.secio.testsupport.NodeJs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A js-libp2p-secio 0.13.1 peer ({@code src/test/js/secio-peer.js}) as a {@link ChildProcess}: its
 * stdout JSON lines are {@link #next events}. Every secio peer runs with {@code
 * --report-secret-prefix}, so {@code secured} events carry {@code secretBytes} and {@code
 * secretLeadingZero}. The same wrapper runs a whole js-libp2p node ({@code libp2p-node.js}) for the
 * multistream tests. {@link #close()} stops the process. Not thread-safe: one test thread uses a peer.
 */
final class JsPeer implements AutoCloseable {
  static final long WAIT_SECONDS = ChildProcess.WAIT.toSeconds();
  private static final Path DIR = NodeJs.jsFolder();
  private static final String CLOSED = "closed";

  private final ChildProcess process;
  /** A listener's port and peer id, from its {@code listening} line. */
  private int port;
  private String peerId;

  private JsPeer(String script, List<String> args) throws IOException {
    this.process = NodeJs.start(DIR, script, args);
  }

  private static JsPeer secioPeer(List<String> args) throws IOException {
    List<String> all = new ArrayList<>(args);
    all.add("--report-secret-prefix");
    return new JsPeer("secio-peer.js", all);
  }

  /** A listener of this key type that echoes; returns once it printed its {@code listening} line. */
  static JsPeer listen(String keyType, String... options) throws IOException {
    List<String> args = new ArrayList<>(List.of("listen", "--key-type", keyType));
    args.addAll(List.of(options));
    return listening(secioPeer(args));
  }

  /** {@code peer} once it printed its {@code listening} line; closed if it did not. */
  private static JsPeer listening(JsPeer peer) {
    try {
      JsonObject listening = peer.next("listening");
      peer.port = listening.get("port").getAsInt();
      peer.peerId = listening.get("peerId").getAsString();
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
    return listening(new JsPeer("libp2p-node.js", List.of("listen", "--key-type", keyType)));
  }

  /** A real js-libp2p node of this key type that dials each of {@code multiaddrs}, {@code count} times. */
  static JsPeer libp2pDialer(String keyType, List<String> multiaddrs, int count) throws IOException {
    return new JsPeer("libp2p-node.js", List.of("dial", "--key-type", keyType,
        "--to", String.join(",", multiaddrs), "--count", Integer.toString(count)));
  }

  /** A dialer of this key type to 127.0.0.1:{@code port}. */
  static JsPeer dial(int port, String keyType, String... options) throws IOException {
    List<String> args = new ArrayList<>(List.of("dial", "--port", Integer.toString(port), "--key-type", keyType));
    args.addAll(List.of(options));
    return secioPeer(args);
  }

  /**
   * Aborts the calling test unless node and the peer's npm packages are installed; with CI=true
   * it fails instead, because a CI run must not quietly skip the interop tests.
   */
  static void requireInstalled() {
    NodeJs.requireInstalled(DIR, "libp2p-secio", "libp2p");
  }

  int port() {
    return port;
  }

  String peerId() {
    return peerId;
  }

  /** The next event, which must be {@code expected}; {@code closed} events are skipped unless expected. */
  JsonObject next(String expected) {
    return expected.equals(CLOSED) ? process.next(expected) : process.next(expected, CLOSED);
  }

  /** Waits for the process to exit and returns its exit code. */
  int exitCode() throws InterruptedException {
    return process.awaitExit();
  }

  /** Waits for a clean exit with nothing left unread but {@code closed} events. */
  void assertExitedCleanly() throws InterruptedException {
    assertEquals(0, exitCode(), process::toString);
    for (JsonObject event : process.eventsLeft()) {
      if (!event.get("event").getAsString().equals(CLOSED)) {
        fail("unexpected " + event + "\n" + process);
      }
    }
  }

  @Override
  public void close() {
    process.close();
  }

  @Override
  public String toString() {
    return process.toString();
  }
}
