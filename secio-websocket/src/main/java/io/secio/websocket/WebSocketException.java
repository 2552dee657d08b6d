package io.secio.websocket;

import java.util.Objects;

/**
 * Why a WebSocket connection failed, in its handshake or after it. It reaches the handlers after the
 * WebSocket layer once, through {@code exceptionCaught}, and the connection is closed; a handshake
 * failure also fails {@link WebSocket#handshakeFuture}. Its message names what was wrong (a status,
 * a header, a limit), never the bytes that carried it.
 */
public final class WebSocketException extends Exception {
  private static final long serialVersionUID = 1L;

  /** What went wrong. */
  public enum Reason {
    /**
     * The upgrade was refused: the server answered other than {@code 101} with a valid {@code
     * Sec-WebSocket-Accept}, or the client's request was not a version-13 WebSocket upgrade of the
     * listener's path (the server answers it with 400, 404 or 426 before it closes).
     */
    HANDSHAKE_REFUSED,
    /** The request or response line or headers were longer than {@link WebSocketConfig#maxHttpHeaderLength()}. */
    HANDSHAKE_TOO_LONG,
    /** The handshake (or, on a listener serving both, telling TCP from WebSocket) ran out of time. */
    HANDSHAKE_TIMEOUT,
    /** The connection ended, or its input was shut down, before the handshake did. */
    CLOSED,
    /** A frame's payload was longer than {@link WebSocketConfig#maxFramePayloadLength()}. */
    FRAME_TOO_LONG,
    /** A frame broke RFC 6455 (masking, reserved bits, opcode, fragmentation, control frame size). */
    MALFORMED_FRAME,
    /** A text frame: the byte stream travels in binary frames only. */
    TEXT_FRAME,
    /** On a listener serving both: the first bytes were neither an HTTP {@code GET} nor a length prefix. */
    NOT_RECOGNISED
  }

  private final Reason reason;

  /**
   * A failure for {@code reason}.
   *
   * @param reason what went wrong
   * @param message what exactly, for a log
   */
  public WebSocketException(Reason reason, String message) {
    this(reason, message, null);
  }

  /**
   * A failure for {@code reason} caused by {@code cause}.
   *
   * @param reason what went wrong
   * @param message what exactly, for a log
   * @param cause the underlying failure, or null
   */
  public WebSocketException(Reason reason, String message, Throwable cause) {
    super(Objects.requireNonNull(reason, "reason") + ": " + message, cause);
    this.reason = reason;
  }

  /** What went wrong. */
  public Reason reason() {
    return reason;
  }
}
