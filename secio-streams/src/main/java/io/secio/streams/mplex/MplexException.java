package io.secio.streams.mplex;

import java.io.IOException;

/**
 * An mplex session failed, refused an operation, or reset a stream for a bound ({@code
 * docs/STREAMS.md} §9.4). A connection-level violation is fired as {@code exceptionCaught} into every
 * open stream and into the connection's pipeline, and the connection closes; {@link
 * Reason#STREAM_BUFFER_EXCEEDED}, {@link Reason#SESSION_BUFFER_EXCEEDED} and {@link
 * Reason#BUDGET_EXCEEDED} are fired into the one stream they reset. {@link #reason()} says
 * what happened.
 *
 * <p>Immutable. The message names flags, ids and lengths, never stream contents.
 */
public final class MplexException extends IOException {
  private static final long serialVersionUID = 1L;

  /** What went wrong. */
  public enum Reason {
    /** A varint longer than its field allows, or not minimal (a trailing zero group). */
    BAD_VARINT,
    /** A flag of 7. */
    BAD_FLAG,
    /** A frame's length over the message limit, checked before any byte of its data is held. */
    FRAME_TOO_LONG,
    /** A close or reset frame that carries data. */
    BAD_CONTROL_FRAME,
    /** A NewStream whose id is not above the peer's last one, or over 2^60 - 1. */
    BAD_STREAM_ID,
    /** A NewStream on an id the peer has open. */
    DUPLICATE_STREAM,
    /** A frame for a stream that was never opened. */
    UNKNOWN_STREAM,
    /** A message on a stream after the peer's own close of it. */
    DATA_AFTER_CLOSE,
    /** The peer provoked more refusals than it read. */
    CONTROL_FLOOD,
    /** A stream's reader fell behind by more than the stream's buffer bound: that stream is reset. */
    STREAM_BUFFER_EXCEEDED,
    /** The connection's streams together held their bound unread: the stream a message was for is reset. */
    SESSION_BUFFER_EXCEEDED,
    /** The node's budget, shared with other connections, had no room: the stream a message was for is reset. */
    BUDGET_EXCEEDED,
    /** The connection closed. */
    CONNECTION_CLOSED,
    /** The session is closed: no new stream. */
    SESSION_CLOSED,
    /** No new stream: the stream limit is reached. */
    STREAM_LIMIT
  }

  private final Reason reason;

  /**
   * A failure.
   *
   * @param reason what went wrong
   * @param message details: flags, ids, lengths
   */
  public MplexException(Reason reason, String message) {
    super(reason + ": " + message);
    this.reason = reason;
  }

  /** What went wrong. */
  public Reason reason() {
    return reason;
  }
}
