package io.secio.streams.internal;

import io.netty.channel.ChannelPromise;
import java.util.function.Consumer;

/**
 * The frames a peer provokes (yamux's pongs and refusals, mplex's refusals) that it has not read
 * yet, bounded ({@code docs/STREAMS.md} §5, §9.3). A frame counts until the socket took it, so the
 * count is what the peer has not read as the socket reports it: every {@value #FLUSH_EVERY}th frame
 * is flushed at once, not at the end of the read burst that provoked it, so a peer that reads
 * everything never nears the bound however many frames one burst provokes, and a peer that reads
 * nothing reaches it.
 *
 * <p>Not thread-safe: the connection's event loop.
 */
public final class ControlBacklog {
  /** Frames written before they are flushed without waiting for the read burst's end. */
  private static final int FLUSH_EVERY = 64;

  private final StreamMuxer muxer;
  private final int max;
  private int unread;
  private int unflushed;

  /**
   * A backlog of at most {@code max} frames on {@code muxer}'s connection.
   *
   * @param muxer the connection's muxer
   * @param max frames the peer may leave unread
   */
  public ControlBacklog(StreamMuxer muxer, int max) {
    this.muxer = muxer;
    this.max = max;
  }

  /**
   * Writes one frame with {@code frame}, given the promise to write it with; returns {@code false}
   * and writes nothing when the peer left the bound unread (the session must end).
   */
  public boolean write(Consumer<ChannelPromise> frame) {
    if (unread >= max) {
      return false;
    }
    unread++;
    ChannelPromise promise = muxer.ctx.newPromise();
    promise.addListener(f -> unread--);
    frame.accept(promise);
    if (++unflushed == FLUSH_EVERY) {
      unflushed = 0;
      muxer.flushNow();
    } else {
      muxer.flush();
    }
    return true;
  }

  /** Frames written that the socket has not taken. */
  public int unread() {
    return unread;
  }
}
