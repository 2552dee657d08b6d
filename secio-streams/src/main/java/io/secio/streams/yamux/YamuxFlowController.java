package io.secio.streams.yamux;

import io.secio.streams.internal.AbstractStreamChannel;
import io.secio.streams.internal.FlowController;
import io.secio.streams.internal.FlowState;
import java.util.ArrayDeque;

/**
 * yamux's credit, both ways, in one place ({@code docs/STREAMS.md} §3, §4.3): every stream's send
 * and receive windows, the session window that bounds them all, and the streams starved of credit.
 *
 * <p>Sending: a stream may send what the peer granted, in frames of at most {@link
 * YamuxConfig#maxSendFrame()}, and is unwritable while the peer granted nothing.
 *
 * <p>Receiving: a stream's receive credit is what the peer may still send on it plus what it sent
 * that the stream's pipeline has not read and given back. Each open stream holds a 256 KiB share of
 * {@link YamuxConfig#sessionWindow()} (the window yamux grants unasked), and no stream opens unless
 * its share fits; credit over a share, its excess, comes out of what the shares and the other excess
 * leave free. So all streams together hold at most the session window plus their shares, that is at
 * most twice the session window. A grant follows tentacle's rule, {@code delta = max window -
 * credit}, sent once it reaches the threshold; when the session window is short, the target shrinks
 * to what is free and the threshold with it, in proportion, and the stream waits as starved until
 * credit frees elsewhere (another stream reads or closes). The node's budget, when the config has one,
 * bounds the same credit across the connections sharing it: a stream's share is drawn from it when the
 * stream opens (none opens while a share does not fit), and its excess as it grows, so a short budget
 * starves streams as a short session window does; the share itself always comes back, so no stream
 * stalls.
 *
 * <p>Not thread-safe: the connection's event loop.
 */
final class YamuxFlowController extends FlowController<YamuxFlowController.Windows> {
  private static final long SHARE = YamuxFrames.INITIAL_WINDOW_IN_BYTES;

  /** One stream's windows. */
  static final class Windows extends FlowState {
    /** Credit the peer granted that this side has not used: the most it may send now. */
    long send = YamuxFrames.INITIAL_WINDOW_IN_BYTES;
    /** Credit this side granted that the peer has not used: the most it may still send. */
    long receive = YamuxFrames.INITIAL_WINDOW_IN_BYTES;
    /** What of this stream's receive credit lies over its 256 KiB share. */
    long excess;
    /** Wants more credit than the session window had free; retried when some frees. */
    boolean starved;

    Windows(AbstractStreamChannel stream) {
      super(stream);
    }

    /** The receive credit: what the peer may send plus what it sent that is still held. */
    long credit() {
      return receive + held();
    }
  }

  private final YamuxFrameWriter writer;
  private final long maxStreamWindow;
  private final long threshold;
  private final long sessionWindow;
  private final int maxSendFrame;
  private final boolean windowInSyn;
  private final ArrayDeque<Windows> starved = new ArrayDeque<>();
  /** The sum of every open stream's excess. */
  private long excess;

  YamuxFlowController(YamuxSession session, YamuxFrameWriter writer, YamuxConfig config) {
    super(session, writer, config.budget().orElse(null));
    this.writer = writer;
    this.maxStreamWindow = config.maxStreamWindow();
    this.threshold = config.windowUpdateThreshold();
    this.sessionWindow = config.sessionWindow();
    this.maxSendFrame = config.maxSendFrame();
    this.windowInSyn = config.windowInSyn();
  }

  // ---- what the session asks ----

  /**
   * Whether one more stream's share fits beside {@code openStreams} streams' shares. Excess lent out
   * does not count: it cannot be taken back, and counting it would let one idle stream's grant keep
   * every new stream out.
   */
  boolean admits(int openStreams) {
    return (openStreams + 1L) * SHARE <= sessionWindow && budgetAvailable() >= SHARE;
  }

  /** The credit {@code stream}'s peer has left: the longest Data frame it may send now. */
  long receiveWindow(AbstractStreamChannel stream) {
    return state(stream).receive;
  }

  /** What {@code stream} may still send before the peer grants more. */
  long sendWindow(AbstractStreamChannel stream) {
    return state(stream).send;
  }

  /**
   * The credit a SYN or ACK for {@code stream} carries above the initial 256 KiB (0 unless granted at
   * once); asked before the stream is added to the session, so it counts as one more.
   */
  long openingGrant(AbstractStreamChannel stream) {
    return windowInSyn ? grant(state(stream), streamCount() + 1, true) : 0;
  }

  /**
   * The peer granted {@code stream} {@code delta} more; false when that would pass 2^32 - 1. What
   * the credit lets go is sent.
   */
  boolean addSendWindow(AbstractStreamChannel stream, long delta) {
    Windows w = state(stream);
    long window = w.send + delta;
    if (window > YamuxFrames.MAX_U32) {
      return false;
    }
    w.send = window;
    if (window > 0) {
      creditExhausted(w, false);
    }
    if (delta > 0) {
      send(stream);
    }
    return true;
  }

  // ---- the shared flow control's questions ----

  /** A new stream: its share, which {@link #admits} found room for, is drawn from the node's budget. */
  @Override
  protected Windows newState(AbstractStreamChannel stream) {
    budgetTake(SHARE);
    return new Windows(stream);
  }

  @Override
  protected int sendCredit(Windows w) {
    return (int) Math.min(w.send, maxSendFrame);
  }

  @Override
  protected void sent(Windows w, int bytes) {
    w.send -= bytes;
    if (w.send == 0) {
      creditExhausted(w, true);
    }
  }

  @Override
  public void received(AbstractStreamChannel stream, int bytes) {
    super.received(stream, bytes);
    state(stream).receive -= bytes;
  }

  /** The stream's pipeline read more: grant it credit, and others that waited for some. */
  @Override
  protected void returned(Windows w) {
    boolean freed = settle(w);
    grantAndWrite(w);
    if (freed) {
      grantStarved();
    }
  }

  /** Its share and excess are free again. */
  @Override
  protected void closed(Windows w) {
    budgetGive(SHARE + w.excess);
    excess -= w.excess;
    w.excess = 0;
    w.starved = false;
  }

  @Override
  protected void freed() {
    if (!starved.isEmpty()) {
      grantStarved();
    }
  }

  // ---- grants ----

  private void grantAndWrite(Windows w) {
    AbstractStreamChannel stream = w.stream();
    if (connectionClosed() || !stream.isOpen() || stream.inputEnded()) {
      return;
    }
    long grant = grant(w, streamCount(), false);
    if (grant > 0) {
      writer.writeWindowUpdate(stream.streamId(), grant); // a control frame: flushed as every one is
    }
  }

  private void grantStarved() {
    for (int n = starved.size(); n > 0; n--) {
      Windows w = pollStarved();
      if (w == null) {
        return;
      }
      grantAndWrite(w);
    }
  }

  /**
   * The credit to grant now (added to the receive window), or 0 for none yet. With {@code force} (a
   * SYN or ACK must go out anyway) it returns what may be granted, maybe 0.
   *
   * @param openStreams streams open, this one included
   */
  private long grant(Windows w, int openStreams, boolean force) {
    long credit = w.credit();
    // What this stream's excess may grow to: what the session window leaves, and the node's budget.
    long free = Math.min(sessionWindow - openStreams * SHARE - excess, budgetAvailable()) + w.excess;
    long target = Math.min(maxStreamWindow, SHARE + Math.max(0, free));
    long grant = Math.max(0, target - credit);
    // Cut short of its max window, and not there yet: it waits for credit to free elsewhere.
    boolean starving = target < maxStreamWindow && credit < maxStreamWindow;
    // tentacle's rule: a grant goes once it reaches the threshold's part of the target.
    boolean due = force || grant > 0 && grant * maxStreamWindow >= threshold * target;
    if (due) {
      w.receive += grant;
      settle(w);
    }
    if (starving) {
      starve(w);
    } else {
      w.starved = false;
    }
    return due ? grant : 0;
  }

  /** The stream's credit changed; true when the session window freed some. */
  private boolean settle(Windows w) {
    long before = w.excess;
    w.excess = Math.max(0, w.credit() - SHARE);
    excess += w.excess - before;
    if (w.excess > before) {
      budgetTake(w.excess - before);
    } else {
      budgetGive(before - w.excess);
    }
    return w.excess < before;
  }

  /** The oldest open stream still waiting for credit, taken off the list (a grant puts it back), or null. */
  private Windows pollStarved() {
    for (Windows w; (w = starved.poll()) != null; ) {
      boolean waiting = w.starved && w.stream().isOpen();
      w.starved = false;
      if (waiting) {
        return w;
      }
    }
    return null;
  }

  private void starve(Windows w) {
    if (!w.starved) {
      w.starved = true;
      starved.add(w);
    }
  }
}
