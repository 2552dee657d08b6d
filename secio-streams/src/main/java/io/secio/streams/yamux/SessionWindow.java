package io.secio.streams.yamux;

import java.util.ArrayDeque;

/**
 * The receive credit of a session's streams, against {@link YamuxConfig#sessionWindow()} ({@code
 * docs/STREAMS.md} §4.3). A stream's receive credit is what the peer may still send on it plus what
 * it sent that the stream's pipeline has not read and given back. Each open stream holds a 256 KiB
 * share (the window yamux grants unasked), and no stream opens unless its share fits in the session
 * window; credit over a share, its excess, comes out of what the shares and the other excess leave
 * free. So all streams together hold at most the session window plus their shares, that is at most
 * twice the session window.
 *
 * <p>A grant follows tentacle's rule, {@code delta = max window - credit}, sent once it reaches the
 * threshold; when the session window is short, the target shrinks to what is free and the threshold
 * with it, in proportion, and the stream waits as starved until credit frees elsewhere.
 *
 * <p>Not thread-safe: the connection's event loop.
 */
final class SessionWindow {
  private static final long SHARE = YamuxFrames.INITIAL_WINDOW_IN_BYTES;

  private final long maxStreamWindow;
  private final long threshold;
  private final long sessionWindow;
  private final ArrayDeque<YamuxStream> starved = new ArrayDeque<>();
  /** The sum of every open stream's excess. */
  private long excess;

  SessionWindow(YamuxConfig config) {
    maxStreamWindow = config.maxStreamWindow();
    threshold = config.windowUpdateThreshold();
    sessionWindow = config.sessionWindow();
  }

  /**
   * Whether one more stream's share fits beside {@code openStreams} streams' shares. Excess lent out
   * does not count: it cannot be taken back, and counting it would let one idle stream's grant keep
   * every new stream out. So all streams hold at most the session window plus their shares.
   */
  boolean admits(int openStreams) {
    return (openStreams + 1L) * SHARE <= sessionWindow;
  }

  /**
   * The credit to grant {@code stream} now (added to its receive window), or -1 for none yet. With
   * {@code force} (a SYN or ACK must go out anyway) it returns what may be granted, maybe 0.
   *
   * @param openStreams streams open, {@code stream} included
   */
  long grant(YamuxStream stream, int openStreams, boolean force) {
    long credit = stream.receiveCredit();
    long free = sessionWindow - openStreams * SHARE - excess + stream.excess;
    long target = Math.min(maxStreamWindow, SHARE + Math.max(0, free));
    long grant = Math.max(0, target - credit);
    boolean limited = target < maxStreamWindow;
    if (!force && (grant == 0 || grant * maxStreamWindow < threshold * target)) {
      if (limited && grant < maxStreamWindow - credit) {
        starve(stream);
      }
      return -1;
    }
    stream.recvWindow += grant;
    settle(stream);
    if (limited && credit + grant < maxStreamWindow) {
      starve(stream);
    } else {
      stream.starved = false;
    }
    return grant;
  }

  /** {@code stream}'s credit fell (its pipeline read); true when the session window freed some. */
  boolean settle(YamuxStream stream) {
    long before = stream.excess;
    stream.excess = Math.max(0, stream.receiveCredit() - SHARE);
    excess += stream.excess - before;
    return stream.excess < before;
  }

  /** {@code stream} closed: its share and excess are free again. */
  void release(YamuxStream stream) {
    excess -= stream.excess;
    stream.excess = 0;
    stream.starved = false;
  }

  /** Streams waiting for credit, oldest first; each is taken off the list (grant puts it back). */
  YamuxStream pollStarved() {
    YamuxStream stream;
    while ((stream = starved.poll()) != null && (!stream.starved || !stream.isOpen())) {
      stream.starved = false;
    }
    if (stream != null) {
      stream.starved = false;
    }
    return stream;
  }

  int starvedCount() {
    return starved.size();
  }

  private void starve(YamuxStream stream) {
    if (!stream.starved) {
      stream.starved = true;
      starved.add(stream);
    }
  }
}
