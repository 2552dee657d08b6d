package io.secio;

import io.secio.protocol.SecioException;
import java.time.Duration;

/**
 * What a node operator counts, told as it happens: each handshake's outcome (with its reason when it
 * failed, a limiter's refusal among them) and duration, and the plaintext bytes of each frame sealed
 * and opened. No metrics library is assumed: an implementation feeds its own (the examples wire one
 * to Micrometer). Set one with {@link SecioConfig.Builder#observer}; {@link #NONE} by default.
 *
 * <p>Called on the connections' event loops, concurrently for different connections, and in the
 * middle of their work: implementations are thread-safe, quick, and never throw (an exception from
 * an observer is caught and dropped). Nothing secret is ever passed.
 */
public interface SecioObserver {
  /** Observes nothing. */
  SecioObserver NONE = new SecioObserver() {};

  /**
   * A handshake completed with {@code session}, {@code duration} after it started (took its permit
   * and sent its first message).
   */
  default void handshakeSucceeded(SecioSession session, Duration duration) {}

  /**
   * A handshake failed for {@code reason}, {@code duration} after it started; a listener's refusal
   * for want of a permit is {@link SecioException.Reason#TOO_MANY_HANDSHAKES} with a zero duration. A
   * failure that is not one of secio's own (another handler's exception) is {@link
   * SecioException.Reason#LOCAL_FAILURE}.
   */
  default void handshakeFailed(SecioException.Reason reason, Duration duration) {}

  /** One frame carrying {@code plaintextBytes} was sealed to be sent. */
  default void frameSealed(int plaintextBytes) {}

  /** One frame carrying {@code plaintextBytes} was received and opened. */
  default void frameOpened(int plaintextBytes) {}
}
