package io.secio.libp2p;

import java.io.IOException;

/**
 * A libp2p protocol on a stream failed ({@code docs/STREAMS.md} §10): the peer's identify record was
 * too large, malformed or not its own, a ping came back wrong, or the connection was gone. A stream
 * that failed this way is reset; the connection goes on. The muxers' own failures are their {@code
 * YamuxException} and {@code MplexException}, and a refused protocol is multistream's {@code
 * MultistreamException}.
 *
 * <p>Immutable. Messages name sizes and peer ids, never stream contents.
 */
public final class Libp2pException extends IOException {
  private static final long serialVersionUID = 1L;

  /** What went wrong. */
  public enum Reason {
    /** The identify message's length prefix is over {@link Libp2pConfig#maxIdentifySize()}. */
    IDENTIFY_TOO_LARGE,
    /** The identify message is not a valid {@code Identify} protobuf, or its stream ended early. */
    IDENTIFY_MALFORMED,
    /** The identify message carries no key, or a key whose peer id is not the secure channel's. */
    IDENTIFY_KEY_MISMATCH,
    /** The ping's echo is not what was sent, or the stream ended before it. */
    PING_MISMATCH,
    /** The connection ended, or its upgrade failed, before the request could be served. */
    CONNECTION_CLOSED
  }

  private final Reason reason;

  /**
   * A failure.
   *
   * @param reason what went wrong
   * @param message details
   */
  public Libp2pException(Reason reason, String message) {
    super(reason + ": " + message);
    this.reason = reason;
  }

  /**
   * A failure with a cause.
   *
   * @param reason what went wrong
   * @param message details
   * @param cause what caused it
   */
  public Libp2pException(Reason reason, String message, Throwable cause) {
    super(reason + ": " + message, cause);
    this.reason = reason;
  }

  /** What went wrong. */
  public Reason reason() {
    return reason;
  }
}
