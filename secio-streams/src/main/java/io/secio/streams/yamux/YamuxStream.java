package io.secio.streams.yamux;

import io.secio.streams.internal.AbstractStreamChannel;

/**
 * One yamux stream: the child channel, and whether the peer has accepted it yet ({@code
 * docs/STREAMS.md} §4). Its windows are {@link YamuxFlowController}'s.
 *
 * <p>Not thread-safe: the connection's event loop.
 */
final class YamuxStream extends AbstractStreamChannel {
  /** Opened here and not ACKed by the peer yet: it counts against the ACK backlog. */
  boolean awaitingAck;

  YamuxStream(YamuxSession session, long streamId, boolean initiator) {
    super(session, streamId, initiator);
  }
}
