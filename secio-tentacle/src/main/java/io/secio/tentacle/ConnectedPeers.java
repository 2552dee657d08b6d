package io.secio.tentacle;

import io.secio.PeerId;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The remote keys that have a session, as a tentacle service keeps them: a second session from a key
 * already connected is refused (its connection closed right after secio, before yamux), as
 * tentacle's {@code RepeatedConnection}. A key leaves when its session's connection closes.
 *
 * <p>Thread-safe: one registry serves every session of a server, on any event loop.
 */
public final class ConnectedPeers {
  private final Set<PeerId> peers = ConcurrentHashMap.newKeySet();

  /** An empty registry. */
  public ConnectedPeers() {}

  /** Adds {@code peer}; false if it is connected already. */
  boolean tryAdd(PeerId peer) {
    return peers.add(peer);
  }

  void remove(PeerId peer) {
    peers.remove(peer);
  }

  /** Whether {@code peer} has a session now. */
  public boolean contains(PeerId peer) {
    return peers.contains(peer);
  }

  /** How many remote keys have a session now. */
  public int size() {
    return peers.size();
  }

  @Override
  public String toString() {
    return "ConnectedPeers{" + peers.size() + "}";
  }
}
