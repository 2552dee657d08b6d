package io.secio.tentacle;

import io.secio.protocol.SecioException;
import java.io.IOException;

/**
 * A tentacle session or one of its protocol streams failed or refused an operation ({@code
 * docs/STREAMS.md} §8.2): the failure of {@link TentacleSession#openStream}, of {@link
 * Tentacle#sessionFuture}, and what a stream's or the connection's pipeline sees in {@code
 * exceptionCaught}. {@link #reason()} says what happened. {@link Tentacle#awaitSession} throws every
 * failure of a session's start as one: secio's with {@link Reason#HANDSHAKE_FAILED} and the {@link
 * SecioException} as the cause.
 *
 * <p>Immutable. The message names protocols, versions and lengths, never message contents.
 */
public final class TentacleException extends IOException {
  private static final long serialVersionUID = 1L;

  /** What went wrong. */
  public enum Reason {
    /** A protocol-select message that is not a ProtocolInfo, or longer than the limit. */
    MALFORMED_SELECT,
    /** The listener refused the protocol: unknown to it, or no version in common (an empty reply). */
    PROTOCOL_REFUSED,
    /** The listener's reply names another protocol, or a version this side did not offer. */
    BAD_SELECT_REPLY,
    /** Protocol-select did not end within {@link TentacleConfig#negotiationTimeout()}. */
    SELECT_TIMEOUT,
    /** The protocol already has its one stream on this session (tentacle opens one per protocol). */
    ALREADY_OPEN,
    /** The protocol is not registered on this side. */
    UNKNOWN_PROTOCOL,
    /** A message on a protocol stream is longer than the protocol's limit. */
    MESSAGE_TOO_LONG,
    /** The session ended (or its stream closed) before the operation could complete. */
    CLOSED,
    /** The remote key already has a session with this side: the second one is refused. */
    DUPLICATE_SESSION,
    /** No protocol was open when {@link TentacleConfig#sessionTimeout()} ran out. */
    SESSION_TIMEOUT,
    /** secio's handshake failed: the cause is its {@link SecioException}, whose reason says why. */
    HANDSHAKE_FAILED
  }

  private final Reason reason;

  /**
   * A failure.
   *
   * @param reason what went wrong
   * @param message details: protocol names, versions, lengths
   */
  public TentacleException(Reason reason, String message) {
    this(reason, message, null);
  }

  /**
   * A failure with its cause.
   *
   * @param reason what went wrong
   * @param message details: protocol names, versions, lengths
   * @param cause what caused it, or null
   */
  public TentacleException(Reason reason, String message, Throwable cause) {
    super(reason + ": " + message, cause);
    this.reason = reason;
  }

  /** What went wrong. */
  public Reason reason() {
    return reason;
  }

  /**
   * {@code cause} as one checked type, for {@link Tentacle#awaitSession}: itself if it is a {@code
   * TentacleException}, secio's failure as {@link Reason#HANDSHAKE_FAILED}, any other as {@link
   * Reason#CLOSED}, each carrying it as the cause. An unchecked one is rethrown: a bug, not a failure.
   */
  static TentacleException of(Throwable cause) {
    if (cause instanceof TentacleException tentacle) {
      return tentacle;
    }
    if (cause instanceof RuntimeException unchecked) {
      throw unchecked;
    }
    if (cause instanceof Error error) {
      throw error;
    }
    if (cause instanceof SecioException secio) {
      return new TentacleException(Reason.HANDSHAKE_FAILED, secio.getMessage(), secio);
    }
    return new TentacleException(Reason.CLOSED, String.valueOf(cause.getMessage()), cause);
  }
}
