package io.secio.netty.multistream;

import java.util.Objects;

/**
 * The user event a multistream-select handler fires exactly once, when its negotiation agrees on a
 * protocol or fails (the cause, usually a {@link MultistreamException}). On success it is fired after
 * the protocol's handler, if any, has been added in the negotiating handler's place and before the
 * bytes read past the negotiation are passed on.
 *
 * <p>Immutable and thread-safe.
 */
public final class MultistreamCompletionEvent {
  private final String protocol;
  private final Throwable cause;

  private MultistreamCompletionEvent(String protocol, Throwable cause) {
    this.protocol = protocol;
    this.cause = cause;
  }

  /** A negotiation that agreed on {@code protocol}. */
  public static MultistreamCompletionEvent success(String protocol) {
    return new MultistreamCompletionEvent(Objects.requireNonNull(protocol, "protocol"), null);
  }

  /** A failed negotiation. */
  public static MultistreamCompletionEvent failure(Throwable cause) {
    return new MultistreamCompletionEvent(null, Objects.requireNonNull(cause, "cause"));
  }

  /**
   * Whether the negotiation agreed on a protocol: then {@code protocol()} is it, otherwise {@code
   * cause()} says why it failed.
   */
  public boolean isSuccess() {
    return cause == null;
  }

  /** The agreed protocol. @throws IllegalStateException if the negotiation failed */
  public String protocol() {
    if (protocol == null) {
      throw new IllegalStateException("negotiation failed", cause);
    }
    return protocol;
  }

  /** Why the negotiation failed, or {@code null} if it succeeded. */
  public Throwable cause() {
    return cause;
  }

  @Override
  public String toString() {
    return isSuccess()
        ? "MultistreamCompletionEvent(SUCCESS, " + protocol + ")"
        : "MultistreamCompletionEvent(" + cause + ")";
  }
}
