package io.secio.libp2p;

import io.secio.streams.yamux.NodePeer;
import io.secio.testing.NodeScript;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * The real js-libp2p 0.29.4 node of secio-netty's interop tests ({@code
 * ../secio-netty/src/test/js/libp2p-node.js}, its README lists the modes and flags) as a child
 * process, a {@link NodePeer}: its stdout JSON lines are events, stderr is kept for failure
 * messages, and closing it ends its stdin (a listener exits, a {@code --hold} dialer hangs up and
 * exits).
 */
final class JsNode {
  static final Path DIR = Paths.get(System.getProperty("basedir", ""), "..", "secio-netty", "src", "test", "js")
      .toAbsolutePath().normalize();

  private JsNode() {}

  /** Runs {@code node libp2p-node.js args...} (aborting the test as {@link #requireInstalled} does). */
  static NodePeer start(String... args) throws IOException {
    requireInstalled();
    return NodePeer.start(DIR, "libp2p-node.js", "libp2p-node.js " + String.join(" ", args), List.of(args));
  }

  /**
   * Aborts the calling test without node or the npm packages of {@link #DIR}, and fails it instead
   * under {@code CI=true}.
   */
  static void requireInstalled() {
    NodeScript.requireInstalled(DIR, "libp2p");
  }
}
