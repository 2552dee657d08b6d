package io.secio.streams.internal;

import io.netty.channel.ChannelPromise;
import java.util.function.Consumer;

/**
 * The control frames written that the peer has not read, bounded ({@code docs/STREAMS.md} §3, §5,
 * §9.3): every frame but data, a stream's opening, our keepalive ping and the goodbye, so every answer
 * a peer provokes (yamux's ACK for each SYN, pongs, refusals, resets, window updates; mplex's resets
 * and closes) counts against one budget. A frame counts until the socket took it, so the count is
 * what the peer has not read as the socket reports it: every {@value #FLUSH_EVERY}th frame is flushed
 * at once, not at the end of the read burst that provoked it, so a peer that reads everything never
 * nears the bound however many frames one burst provokes, and a peer that reads nothing reaches it.
 * Past the bound the frame is not written and the session ends ({@link StreamMuxer#controlFlood}).
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
   * when the peer left the bound unread: nothing is written, and the session ended.
   */
  boolean write(Consumer<ChannelPromise> frame) {
    return write(frame, null);
  }

  /**
   * As {@link #write(Consumer)}, completing {@code after} (unless {@code null} or void) with the
   * frame's write, or failing it when the frame is not written.
   */
  boolean write(Consumer<ChannelPromise> frame, ChannelPromise after) {
    ChannelPromise then = after == null || after.isVoid() ? null : after;
    if (unread >= max) {
      Throwable cause = muxer.controlFlood(unread);
      if (then != null) {
        then.tryFailure(cause);
      }
      return false;
    }
    unread++;
    ChannelPromise promise = muxer.ctx.newPromise();
    promise.addListener(f -> {
      unread--;
      if (then == null) {
        return;
      }
      if (f.isSuccess()) {
        then.trySuccess();
      } else {
        then.tryFailure(f.cause());
      }
    });
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
