package io.secio.netty.multistream;

import java.io.IOException;
import java.util.Objects;

/**
 * Why a multistream-select negotiation failed. An {@link IOException} rather than a {@link
 * io.secio.protocol.SecioException}: it happens before any secure channel exists (or, inside one, concerns the
 * application protocol), and it says nothing about keys or authentication. The message names the
 * reason and at most the offending message, escaped and bounded by {@link io.secio.PeerText}.
 */
public final class MultistreamException extends IOException {
  private static final long serialVersionUID = 1L;

  /** What went wrong. */
  public enum Reason {
    /** A length prefix over {@link MultistreamMessage#MAX_MESSAGE_LENGTH_IN_BYTES}. */
    MESSAGE_TOO_LONG("message too long"),
    /** A bad varint, an empty message, no trailing newline, a newline inside, or invalid UTF-8. */
    MALFORMED_MESSAGE("malformed message"),
    /** The peer's first message was not {@value MultistreamMessage#HEADER}. */
    WRONG_HEADER("wrong header"),
    /** The responder refused every protocol the initiator proposed. */
    NO_COMMON_PROTOCOL("no common protocol"),
    /** An answer that is neither the echo of our proposal nor {@code na}. */
    UNEXPECTED_MESSAGE("unexpected answer"),
    /** The initiator sent more proposals (and {@code ls} requests) than a responder answers. */
    TOO_MANY_PROPOSALS("too many proposals"),
    /** The negotiation did not finish within its timeout. */
    TIMEOUT("timed out"),
    /** The channel closed, was reset or had its input shut down before the negotiation finished. */
    CLOSED("connection closed");

    private final String description;

    Reason(String description) {
      this.description = description;
    }

    /** A few words for people, e.g. {@code "no common protocol"}. */
    public String description() {
      return description;
    }
  }

  private final Reason reason;

  /**
   * A failure for {@code reason}, {@code detail} saying more (a peer's text in it escaped and
   * bounded).
   */
  public MultistreamException(Reason reason, String detail) {
    super("multistream-select " + reason.description() + (detail == null ? "" : ": " + detail));
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  /** A failure for {@code reason} caused by {@code cause}, {@code detail} saying more. */
  public MultistreamException(Reason reason, String detail, Throwable cause) {
    this(reason, detail);
    initCause(cause);
  }

  /** Why the negotiation failed. */
  public Reason reason() {
    return reason;
  }
}
