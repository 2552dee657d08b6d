package io.secio.libp2p;

import io.secio.testsupport.ChildProcess;
import io.secio.testsupport.NodeJs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The node.js peers of the interop tests as child processes: the real js-libp2p 0.29.4 node of
 * secio-netty's interop tests ({@code ../secio-netty/src/test/js/libp2p-node.js}, its README lists
 * the modes and flags), and secio-streams' {@code yamux-multistream-peer.js} ({@code
 * @chainsafe/libp2p-yamux} behind {@code @libp2p/multistream-select}). Their stdout JSON lines are
 * the {@link ChildProcess}'s events; ending stdin ends them (a listener exits, a {@code --hold} dialer
 * hangs up and exits).
 */
final class JsNode {
  static final Path LIBP2P_NODE_DIR = NodeJs.jsFolder("secio-netty");
  static final Path YAMUX_PEER_DIR = NodeJs.jsFolder("secio-streams");
  private static final String YAMUX_PEER = "yamux-multistream-peer.js";

  private JsNode() {}

  /** Runs {@code node libp2p-node.js args...} (aborting the test as {@link #requireInstalled} does). */
  static ChildProcess start(String... args) throws IOException {
    requireInstalled();
    return NodeJs.start(LIBP2P_NODE_DIR, "libp2p-node.js", List.of(args));
  }

  /**
   * Aborts the calling test without node or the npm packages of {@link #LIBP2P_NODE_DIR}, and fails
   * it instead under {@code CI=true}.
   */
  static void requireInstalled() {
    NodeJs.requireInstalled(LIBP2P_NODE_DIR, "libp2p");
  }

  /** As {@link #requireInstalled} for the yamux peer's packages. */
  static void requireYamuxPeer() {
    NodeJs.requireInstalled(YAMUX_PEER_DIR, "@chainsafe/libp2p-yamux", "@libp2p/multistream-select");
  }

  /** Runs {@code node yamux-multistream-peer.js args...} ({@code listen}, or {@code dial --port N}). */
  static ChildProcess yamuxPeer(String... args) throws IOException {
    requireYamuxPeer();
    return NodeJs.start(YAMUX_PEER_DIR, YAMUX_PEER, List.of(args));
  }
}
