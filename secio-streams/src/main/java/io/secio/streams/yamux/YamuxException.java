package io.secio.streams.yamux;

import java.io.IOException;

/**
 * A yamux session failed or refused an operation ({@code docs/STREAMS.md} §5). Fired as {@code
 * exceptionCaught} into the connection's pipeline and into every stream still open when the session
 * fails, and the failure of opens the session cannot honour. {@link #reason()} says what happened;
 * {@link #goAwayCode()} is the code of the GoAway this side sent for it, or the peer's code for
 * {@link Reason#PEER_GO_AWAY}.
 *
 * <p>Immutable. The message names frame types, ids and lengths, never stream contents.
 */
public final class YamuxException extends IOException {
  private static final long serialVersionUID = 1L;

  /** What went wrong, and the GoAway code this side answers it with (-1: none). */
  public enum Reason {
    /** The header's version is not 0. */
    BAD_VERSION(1),
    /** The header's type is not 0..3. */
    BAD_TYPE(1),
    /** A Data frame's length is over the limit (checked from the header, before the body). */
    FRAME_TOO_LONG(1),
    /** A Data frame is longer than the credit this side had granted for its stream. */
    WINDOW_EXCEEDED(1),
    /** A WindowUpdate would push a send window over 2^32 - 1. */
    WINDOW_OVERFLOW(1),
    /** A SYN on an id of this side's parity, on stream 0, or on an id not above the peer's last. */
    BAD_STREAM_ID(1),
    /** A SYN on a stream that is open. */
    DUPLICATE_STREAM(1),
    /** A frame for a stream the peer never opened. */
    UNKNOWN_STREAM(1),
    /** Data after the peer's own FIN on that stream. */
    DATA_AFTER_FIN(1),
    /** A Ping or GoAway on a stream id other than 0. */
    BAD_SESSION_FRAME(1),
    /** The peer provoked more answers (pongs, refusals) than it read. */
    CONTROL_FLOOD(2),
    /** The peer sent GoAway; {@link #goAwayCode()} is its code. */
    PEER_GO_AWAY(-1),
    /** No answer to a keepalive ping in time (tentacle drops such a session without a GoAway). */
    KEEPALIVE_TIMEOUT(-1),
    /** The connection closed with no GoAway either way. */
    CONNECTION_CLOSED(-1),
    /** The session is closing or closed: no new stream. */
    SESSION_CLOSED(-1),
    /** No new stream: the stream limit or the session's receive window is reached. */
    STREAM_LIMIT(-1),
    /** Every stream id of this side's parity is used. */
    STREAM_IDS_EXHAUSTED(-1);

    private final int goAwayCode;

    Reason(int goAwayCode) {
      this.goAwayCode = goAwayCode;
    }

    /** The GoAway code this side sends for it, or -1 when it sends none. */
    public int goAwayCode() {
      return goAwayCode;
    }
  }

  private final Reason reason;
  private final long goAwayCode;

  /**
   * A failure.
   *
   * @param reason what went wrong
   * @param message details: frame types, ids, lengths
   */
  public YamuxException(Reason reason, String message) {
    this(reason, message, reason.goAwayCode());
  }

  private YamuxException(Reason reason, String message, long goAwayCode) {
    super(reason + ": " + message);
    this.reason = reason;
    this.goAwayCode = goAwayCode;
  }

  /** The peer's GoAway with {@code code}. */
  static YamuxException peerGoAway(long code) {
    return new YamuxException(Reason.PEER_GO_AWAY, "the peer sent GoAway " + code, code);
  }

  /** The session's orderly end: GoAway 0 went one way or both. */
  static YamuxException ended(String message) {
    return new YamuxException(Reason.SESSION_CLOSED, message, YamuxFrames.GO_AWAY_NORMAL);
  }

  /**
   * The code of the GoAway that answers an end for {@code cause}: a violation's own code, 0 for the
   * peer's GoAway (as tentacle answers it) and for an orderly end, -1 (none) for the rest.
   */
  static long answer(Throwable cause) {
    if (!(cause instanceof YamuxException)) {
      return -1;
    }
    YamuxException e = (YamuxException) cause;
    return e.reason == Reason.PEER_GO_AWAY ? YamuxFrames.GO_AWAY_NORMAL : e.goAwayCode;
  }

  /** Whether this is the session's orderly end ({@link #ended}), not a failure. */
  boolean isOrderlyEnd() {
    return reason == Reason.SESSION_CLOSED && goAwayCode == YamuxFrames.GO_AWAY_NORMAL;
  }

  /** What went wrong. */
  public Reason reason() {
    return reason;
  }

  /** The GoAway code sent for this failure, the peer's code for {@link Reason#PEER_GO_AWAY}, or -1. */
  public long goAwayCode() {
    return goAwayCode;
  }
}
