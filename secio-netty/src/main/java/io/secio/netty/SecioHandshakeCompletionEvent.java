package io.secio.netty;

import io.secio.Dialect;
import io.secio.SecioSession;
import java.util.Objects;

/**
 * The user event a {@link SecioHandshakeHandler} fires exactly once per channel, when its handshake
 * succeeds (with the session) or fails (with the cause, usually a {@link io.secio.protocol.SecioException}).
 * On success it is fired after the handler has replaced itself with the {@link SecioFrameCodec}, so
 * the channel already reads and writes plaintext when a handler sees it. On failure the same cause
 * follows through {@code exceptionCaught} (see {@link Secio}), so a handler need not watch for both.
 *
 * <p>Immutable and thread-safe.
 */
public final class SecioHandshakeCompletionEvent {
  private final SecioSession session;
  private final Throwable cause;

  private SecioHandshakeCompletionEvent(SecioSession session, Throwable cause) {
    this.session = session;
    this.cause = cause;
  }

  /** A successful handshake that established {@code session}. */
  public static SecioHandshakeCompletionEvent success(SecioSession session) {
    return new SecioHandshakeCompletionEvent(Objects.requireNonNull(session, "session"), null);
  }

  /** A failed handshake. */
  public static SecioHandshakeCompletionEvent failure(Throwable cause) {
    return new SecioHandshakeCompletionEvent(null, Objects.requireNonNull(cause, "cause"));
  }

  /**
   * Whether the handshake succeeded: then {@code session()} is its outcome, otherwise {@code
   * cause()} says why it failed.
   */
  public boolean isSuccess() {
    return cause == null;
  }

  /** The established session. @throws IllegalStateException if the handshake failed */
  public SecioSession session() {
    if (session == null) {
      throw new IllegalStateException("handshake failed", cause);
    }
    return session;
  }

  /** The dialect the handshake spoke. @throws IllegalStateException if the handshake failed */
  public Dialect dialect() {
    return session().dialect();
  }

  /** Why the handshake failed, or {@code null} if it succeeded. */
  public Throwable cause() {
    return cause;
  }

  @Override
  public String toString() {
    return isSuccess()
        ? "SecioHandshakeCompletionEvent(SUCCESS, " + session + ")"
        : "SecioHandshakeCompletionEvent(" + cause + ")";
  }
}
