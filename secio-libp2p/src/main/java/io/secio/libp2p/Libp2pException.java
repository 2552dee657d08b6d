package io.secio.libp2p;

import io.secio.netty.multistream.MultistreamException;
import io.secio.protocol.SecioException;
import java.io.IOException;

/**
 * A libp2p session or a protocol on one of its streams failed ({@code docs/STREAMS.md} §10): the
 * peer's identify record was too large, malformed, not its own or too late, a ping came back wrong, or the
 * connection was gone. A stream that failed this way is reset; the connection goes on. The muxers' own
 * failures are their {@code YamuxException} and {@code MplexException}, and a refused protocol is
 * multistream's {@code MultistreamException}. {@link Libp2p#awaitSession} throws every failure of a
 * session's start as one: secio's ({@link Reason#HANDSHAKE_FAILED}) and multistream-select's ({@link
 * Reason#NEGOTIATION_FAILED}) with the layer's exception as the cause.
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
    /** The identify record was not in within {@link Libp2pConfig#identifyTimeout()} of the request. */
    IDENTIFY_TIMEOUT,
    /** The ping's echo is not what was sent, or the stream ended before it. */
    PING_MISMATCH,
    /** The connection ended, or its upgrade failed, before the request could be served. */
    CONNECTION_CLOSED,
    /** secio's handshake failed: the cause is its {@link SecioException}, whose reason says why. */
    HANDSHAKE_FAILED,
    /**
     * multistream-select in front of secio or of the muxer failed (no common muxer, a timeout, a
     * malformed message): the cause is its {@link MultistreamException}.
     */
    NEGOTIATION_FAILED
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

  /**
   * {@code cause} as one checked type, for {@link Libp2p#awaitSession}: itself if it is a {@code
   * Libp2pException}, secio's failure as {@link Reason#HANDSHAKE_FAILED}, multistream-select's as
   * {@link Reason#NEGOTIATION_FAILED}, any other as {@link Reason#CONNECTION_CLOSED}, each carrying it
   * as the cause. An unchecked one is rethrown: a bug, not a failure.
   */
  static Libp2pException of(Throwable cause) {
    if (cause instanceof Libp2pException libp2p) {
      return libp2p;
    }
    if (cause instanceof RuntimeException unchecked) {
      throw unchecked;
    }
    if (cause instanceof Error error) {
      throw error;
    }
    Reason reason = cause instanceof SecioException ? Reason.HANDSHAKE_FAILED
        : cause instanceof MultistreamException ? Reason.NEGOTIATION_FAILED
        : Reason.CONNECTION_CLOSED;
    return new Libp2pException(reason, String.valueOf(cause.getMessage()), cause);
  }
}
