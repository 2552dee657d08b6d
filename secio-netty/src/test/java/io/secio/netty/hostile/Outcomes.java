package io.secio.netty.hostile;

import static io.secio.netty.hostile.HostileConfigs.HANDSHAKE_TIMEOUT;
import static io.secio.netty.hostile.HostileConfigs.SLACK;
import static io.secio.netty.hostile.HostileConfigs.WAIT_SECONDS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.SecioException;
import io.secio.SecioException.Reason;
import io.secio.netty.SecioHandshakeCompletionEvent;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The assertions every hostile case shares: the reason, the close in time, nothing delivered. */
public final class Outcomes {
  private Outcomes() {}

  /**
   * The handshake of {@code c} failed with {@code expected}; the channel closed within the handshake
   * timeout (a {@link Reason#TIMEOUT} at it, give or take scheduling slack); the completion event and
   * {@code exceptionCaught} fired exactly once each, with the same failure; and not one byte reached
   * the application.
   */
  public static SecioException assertHandshakeRefused(Connection c, Reason expected) throws Exception {
    assertTrue(c.handshake.await(WAIT_SECONDS, TimeUnit.SECONDS), "handshake still running");
    assertFalse(c.handshake.isSuccess(), "handshake succeeded");
    SecioException cause = assertInstanceOf(SecioException.class, c.handshake.cause());
    assertEquals(expected, cause.reason(), cause.toString());
    long openMillis = c.openMillis(WAIT_SECONDS);
    long timeout = HANDSHAKE_TIMEOUT.toMillis();
    if (expected == Reason.TIMEOUT) {
      assertTrue(openMillis >= timeout - 50, "timed out early, after " + openMillis + " ms");
      assertTrue(openMillis <= timeout + SLACK.toMillis(), "closed " + openMillis + " ms after opening");
    } else {
      assertTrue(openMillis < timeout, "closed " + openMillis + " ms after opening");
    }
    c.settle(WAIT_SECONDS);
    List<SecioHandshakeCompletionEvent> events = c.app.completions();
    assertEquals(1, events.size(), "completion events: " + events);
    assertFalse(events.get(0).isSuccess());
    assertEquals(cause, events.get(0).cause());
    assertArrayEquals(new byte[0], c.app.received(), "bytes reached the application");
    assertEquals(List.of(cause), c.app.exceptions(), "exceptionCaught once, with the handshake's cause");
    return cause;
  }

  /**
   * After an established session, the application got exactly {@code honest} and then one frame
   * failure of reason {@code expected}, and the channel closed within the handshake timeout of {@code
   * sentNanos}, when the bad frame was written.
   */
  public static void assertFrameRefused(Connection c, Reason expected, byte[] honest, long sentNanos)
      throws Exception {
    c.settle(WAIT_SECONDS);
    long closedAfterMillis = TimeUnit.NANOSECONDS.toMillis(c.closedNanos.get() - sentNanos);
    assertTrue(closedAfterMillis < HANDSHAKE_TIMEOUT.toMillis(), "closed " + closedAfterMillis + " ms after");
    assertTrue(c.handshake.isSuccess(), "handshake had failed: " + c.handshake.cause());
    assertEquals(1, c.app.completions().size(), "completion events: " + c.app.completions());
    List<Throwable> exceptions = c.app.exceptions();
    assertEquals(1, exceptions.size(), "exceptions: " + exceptions);
    SecioException cause = assertInstanceOf(SecioException.class, exceptions.get(0));
    assertEquals(expected, cause.reason(), cause.toString());
    assertArrayEquals(honest, c.app.received(), "the application got other than the honest prefix");
  }
}
