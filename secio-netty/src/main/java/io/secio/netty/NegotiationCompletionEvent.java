package io.secio.netty;

import java.util.Objects;

/**
 * The user event every protocol negotiation fires exactly once, when it agrees or fails:
 * multistream-select (in front of secio, of a libp2p muxer, and on each libp2p stream) and tentacle's
 * protocol-select (on each tentacle stream). On success it is fired after the agreed protocol's
 * handlers have taken the negotiation's place and before the bytes read past the negotiation reach
 * them; on failure the same cause follows through {@code exceptionCaught}, once, and the channel
 * closes, as a failed secio handshake's does ({@link SecioHandshakeCompletionEvent}).
 *
 * <p>Immutable and thread-safe.
 */
public final class NegotiationCompletionEvent {
  private final NegotiatedProtocol protocol;
  private final Throwable cause;

  private NegotiationCompletionEvent(NegotiatedProtocol protocol, Throwable cause) {
    this.protocol = protocol;
    this.cause = cause;
  }

  /**
   * A negotiation that agreed on {@code protocol}.
   *
   * @param protocol what was agreed
   * @return the event
   */
  public static NegotiationCompletionEvent success(NegotiatedProtocol protocol) {
    return new NegotiationCompletionEvent(Objects.requireNonNull(protocol, "protocol"), null);
  }

  /**
   * A failed negotiation.
   *
   * @param cause why it failed
   * @return the event
   */
  public static NegotiationCompletionEvent failure(Throwable cause) {
    return new NegotiationCompletionEvent(null, Objects.requireNonNull(cause, "cause"));
  }

  /**
   * Whether the negotiation agreed: then {@code protocol()} is what it agreed on, otherwise {@code
   * cause()} says why it failed.
   */
  public boolean isSuccess() {
    return cause == null;
  }

  /** The agreed protocol. @throws IllegalStateException if the negotiation failed */
  public NegotiatedProtocol protocol() {
    if (protocol == null) {
      throw new IllegalStateException("negotiation failed", cause);
    }
    return protocol;
  }

  /**
   * Why the negotiation failed, or {@code null} if it succeeded: multistream-select's {@code
   * MultistreamException}, tentacle's {@code TentacleException}, or what ended the channel first.
   */
  public Throwable cause() {
    return cause;
  }

  @Override
  public String toString() {
    return isSuccess()
        ? "NegotiationCompletionEvent(SUCCESS, " + protocol + ")"
        : "NegotiationCompletionEvent(" + cause + ")";
  }
}
