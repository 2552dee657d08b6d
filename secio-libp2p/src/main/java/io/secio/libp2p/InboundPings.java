package io.secio.libp2p;

import io.secio.streams.StreamChannel;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The peers' inbound ping streams: one per peer across every connection made with one {@link
 * Libp2pConfig} ({@code docs/STREAMS.md} §10). A peer's newer ping stream resets its older one,
 * whichever connection either lives on; a connection without secio (no peer id) is its own key. One
 * entry per peer with an open ping stream, removed when the stream closes.
 *
 * <p>Thread-safe: connections run on different event loops; a stream is reset on its own.
 */
final class InboundPings {
  private final ConcurrentHashMap<Object, StreamChannel> streams = new ConcurrentHashMap<>();

  /** {@code stream} is now {@code peer}'s ping stream; the one it had before is reset. */
  void opened(Object peer, StreamChannel stream) {
    StreamChannel older = streams.put(peer, stream);
    stream.closeFuture().addListener(f -> streams.remove(peer, stream));
    if (older != null && older != stream) {
      older.eventLoop().execute(() -> {
        if (older.isOpen()) {
          older.reset();
        }
      });
    }
  }

  /** Peers with an open ping stream. */
  int size() {
    return streams.size();
  }
}
