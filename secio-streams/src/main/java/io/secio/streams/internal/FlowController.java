package io.secio.streams.internal;

import io.netty.channel.Channel;
import io.secio.streams.MemoryBudget;

/**
 * A connection's flow control, the one place that decides what moves ({@code docs/STREAMS.md} §3),
 * as Netty's HTTP/2 flow controllers do: what each stream received and has not given back, what
 * each stream may send now, the queue of streams with bytes to send (served round robin while the
 * connection is writable, so a stream without credit or with a slow peer never holds the others
 * up), and the connection's writability passed on to every stream. The way out reads straight: a
 * stream's flush queues it here, and the queue hands its bytes to the muxer's {@link
 * StreamFrameWriter}. A muxer subclasses it with its rule: yamux with its windows, mplex with none.
 *
 * <p>Not thread-safe: the connection's event loop.
 *
 * @param <F> the muxer's per-stream counters
 */
public abstract class FlowController<F extends FlowState> {
  private final StreamMuxer muxer;
  private final StreamFrameWriter writer;
  private final SendQueue sendQueue = new SendQueue();
  private boolean draining;
  private boolean drainAgain;
  private boolean streamsWritable;
  private boolean fanningOut;
  /** What all streams hold: the sum of their {@link FlowState#held()}. */
  private long heldByAll;
  private final MemoryBudget budget;
  /** This connection's account with the node's budget, opened when first used (the connection is up by then). */
  private MemoryBudget.Account account;

  /**
   * The flow control of {@code muxer}'s connection.
   *
   * @param muxer the connection's muxer
   * @param writer where the streams' frames go
   * @param budget the node's budget this connection draws on, or {@code null}
   */
  protected FlowController(StreamMuxer muxer, StreamFrameWriter writer, MemoryBudget budget) {
    this.muxer = muxer;
    this.writer = writer;
    this.budget = budget;
    this.streamsWritable = muxer.ctx.channel().isWritable();
  }

  // ---- the muxer's rule ----

  /** New counters for {@code stream}, which is being made. */
  protected abstract F newState(AbstractStreamChannel stream);

  /** How many bytes the next data frame of {@code state}'s stream may carry now; 0 when none. */
  protected abstract int sendCredit(F state);

  /** {@code bytes} of data went out for {@code state}'s stream. */
  protected void sent(F state, int bytes) {}

  /** What {@code state}'s stream holds fell: its pipeline read past some bytes, or dropped them. */
  protected void returned(F state) {}

  /** {@code state}'s stream closed: what it held is free. */
  protected void closed(F state) {}

  /** A stream closed and the muxer forgot it: what it held may go to others. */
  protected void freed() {}

  /** The counters of {@code stream}. */
  protected final F state(AbstractStreamChannel stream) {
    return typed(stream.flow);
  }

  @SuppressWarnings("unchecked")
  private F typed(FlowState s) {
    return (F) s;
  }

  /** What all streams of the connection hold: received, and their credit not back. */
  protected final long heldByAll() {
    return heldByAll;
  }

  /** What was received changed by {@code delta} bytes: {@link #heldByAll()} with it. */
  protected void heldChanged(long delta) {}

  // ---- the node's budget (MemoryBudget), if any ----

  /** What this connection may still draw from the node's budget; {@code Long.MAX_VALUE} without one. */
  protected final long budgetAvailable() {
    return budget == null ? Long.MAX_VALUE : account().available();
  }

  /** Draws {@code bytes} from the node's budget (checked against {@link #budgetAvailable()} first). */
  protected final void budgetTake(long bytes) {
    if (budget != null) {
      account().take(bytes);
    }
  }

  /** Gives {@code bytes} back to the node's budget. */
  protected final void budgetGive(long bytes) {
    if (budget != null) {
      account().give(bytes);
    }
  }

  private MemoryBudget.Account account() {
    if (account == null) {
      account = budget.account(muxer.ctx.channel().remoteAddress());
    }
    return account;
  }

  /** The session ended and every stream closed: what the connection still draws goes back. */
  final void ended() {
    if (account != null) {
      account.close();
    }
  }

  /** How many streams are open. */
  protected final int streamCount() {
    return muxer.streamCount();
  }

  /** Whether the connection closed: nothing may be written any more. */
  protected final boolean connectionClosed() {
    return muxer.isInactive();
  }

  /** Makes {@code state}'s stream unwritable while the peer granted it nothing, or writable again. */
  protected final void creditExhausted(F state, boolean exhausted) {
    state.stream.noCredit(exhausted);
  }

  // ---- receiving ----

  /** {@code bytes} arrived for {@code stream}: held until its pipeline reads past them. */
  public void received(AbstractStreamChannel stream, int bytes) {
    stream.flow.held += bytes;
    heldByAll += bytes;
    heldChanged(bytes);
  }

  /** {@code bytes} of {@code stream} went up its pipeline; their credit is back once it asks for more. */
  final void delivered(AbstractStreamChannel stream, int bytes) {
    stream.flow.unreturned += bytes;
  }

  /** {@code stream}'s pipeline asks for more: the bytes it read are given back. */
  final void readRequested(AbstractStreamChannel stream) {
    FlowState s = stream.flow;
    if (s.unreturned > 0) {
      s.held -= s.unreturned;
      heldByAll -= s.unreturned;
      heldChanged(-s.unreturned);
      s.unreturned = 0;
      returned(state(stream));
    }
  }

  /** {@code stream} dropped {@code queuedBytes} unread, and gives back the ones it read too. */
  final void discarded(AbstractStreamChannel stream, long queuedBytes) {
    FlowState s = stream.flow;
    long bytes = queuedBytes + s.unreturned;
    s.unreturned = 0;
    if (bytes > 0) {
      s.held -= bytes;
      heldByAll -= bytes;
      heldChanged(-bytes);
      returned(state(stream));
    }
  }

  /** {@code stream} closed: it leaves the send queue at once, and what it held is free. */
  final void forget(AbstractStreamChannel stream) {
    F s = state(stream);
    sendQueue.remove(s);
    heldByAll -= s.held;
    heldChanged(-s.held);
    s.held = 0;
    s.unreturned = 0;
    closed(s);
  }

  // ---- sending ----

  /** {@code stream} has flushed bytes or got credit: queue it, and send what may go. */
  public final void send(AbstractStreamChannel stream) {
    F s = state(stream);
    if (!s.queued && stream.hasSendable(sendCredit(s))) {
      sendQueue.add(s);
    }
    drain();
  }

  /**
   * The connection's writability changed: sending resumes, and the streams follow what is left.
   * Bytes already queued go first, so while they refill the connection (it flips a few times per
   * frame) the streams stay unwritable and hear nothing: a flip costs a check, not an event per
   * stream.
   */
  final void writabilityChanged() {
    if (muxer.ctx.channel().isWritable()) {
      drain();
    } else {
      followWritability();
    }
  }

  /** The connection's writability as the streams last heard of it. */
  final boolean streamsWritable() {
    return streamsWritable;
  }

  /** One frame per stream in turn while the connection is writable; then the streams follow its writability. */
  private void drain() {
    if (draining) {
      drainAgain = true; // a write completed inside the loop and asked again: the loop goes on
      return;
    }
    draining = true;
    try {
      Channel connection = muxer.ctx.channel();
      do {
        drainAgain = false;
        boolean wrote = false;
        for (F s; connection.isWritable() && (s = typed(sendQueue.poll())) != null; ) {
          AbstractStreamChannel stream = s.stream;
          int credit = sendCredit(s);
          if (!stream.isOpen() || !stream.hasSendable(credit)) {
            continue;
          }
          int bytes = stream.sendNext(credit, writer);
          wrote = true;
          if (bytes > 0) {
            sent(s, bytes);
            muxer.wroteData(bytes);
          }
          if (!s.queued && stream.isOpen() && stream.hasSendable(sendCredit(s))) {
            sendQueue.add(s);
          }
        }
        if (wrote) {
          muxer.flush();
        }
      } while (drainAgain && connection.isWritable() && !sendQueue.isEmpty());
    } finally {
      draining = false;
    }
    followWritability();
  }

  /**
   * Every stream takes the connection's writability if they have not yet. Netty fires some changes
   * later, and a drain or the fan-out itself may flip the connection again: a stale call does
   * nothing, and one made during the fan-out is taken up when it ends.
   */
  private void followWritability() {
    if (fanningOut || draining) {
      return; // the loop below, or the drain's end, looks again
    }
    fanningOut = true;
    try {
      Channel connection = muxer.ctx.channel();
      for (boolean writable; (writable = connection.isWritable()) != streamsWritable; ) {
        streamsWritable = writable;
        for (AbstractStreamChannel stream : muxer.snapshot()) {
          stream.connectionWritable(writable);
        }
      }
    } finally {
      fanningOut = false;
    }
  }
}
