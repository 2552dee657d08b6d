package io.secio.streams.yamux;

import io.secio.testsupport.ChildProcess;
import io.secio.testsupport.NodeJs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code src/test/js/yamux-peer.js} (one npm yamux implementation on one TCP connection, its header
 * lists the events and commands) as a {@link ChildProcess}: its stdout JSON lines are the process's
 * events, a command is a line written to its stdin, and ending stdin closes its session and ends it.
 */
final class NodePeer {
  static final Path DIR = NodeJs.jsFolder();
  private static final String SCRIPT = "yamux-peer.js";

  private NodePeer() {}

  /**
   * Aborts the calling test without node or the script's npm packages, and fails it instead under
   * {@code CI=true}.
   */
  static void requireInstalled() {
    NodeJs.requireInstalled(DIR, "yamux-js", "@chainsafe/libp2p-yamux");
  }

  /** A peer of {@code impl} listening on loopback; its first event, {@code listening}, holds the port. */
  static ChildProcess listen(String impl) throws IOException {
    return NodeJs.start(DIR, SCRIPT, List.of("--impl", impl, "listen"));
  }

  /** A peer of {@code impl} dialing 127.0.0.1:{@code port}; its first event is {@code connected}. */
  static ChildProcess dial(String impl, int port) throws IOException {
    return NodeJs.start(DIR, SCRIPT, List.of("--impl", impl, "dial", "--port", Integer.toString(port)));
  }
}
