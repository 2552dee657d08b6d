package io.secio.streams.mplex;

import io.secio.streams.internal.AbstractStreamChannel;

/**
 * One mplex stream ({@code docs/STREAMS.md} §9.2): the child channel as every muxer has it; mplex
 * keeps nothing more per stream. Whose stream it is ({@link #isInitiator()}) picks its flags.
 *
 * <p>Not thread-safe: the connection's event loop.
 */
final class MplexStream extends AbstractStreamChannel {

  MplexStream(MplexSession session, long streamId, boolean initiator) {
    super(session, streamId, initiator);
  }
}
