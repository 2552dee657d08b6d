package io.secio.netty.hostile;

import static io.secio.netty.hostile.HostileConfigs.WAIT_SECONDS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.netty.SecioHandshakeCompletionEvent;
import io.secio.protocol.SecioException.Reason;
import io.secio.protocol.SecioException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The assertions every hostile case shares: the reason, the close in time, nothing delivered. */
public final class Outcomes {
  private Outcomes() {}

  /**
   * The handshake of {@code c} failed with {@code expected}; the channel closed; the completion event
   * and {@code exceptionCaught} fired exactly once each, with the same failure; and not one byte
   * reached the application. No wall-clock bound is asserted (a loaded machine makes them flake): the
   * reason says which path closed it, and {@code WAIT_SECONDS} only guards against a hang.
   */
  public static SecioException assertHandshakeRefused(Connection c, Reason expected) throws Exception {
    assertTrue(c.handshake.await(WAIT_SECONDS, TimeUnit.SECONDS), "handshake still running");
    assertFalse(c.handshake.isSuccess(), "handshake succeeded");
    SecioException cause = assertInstanceOf(SecioException.class, c.handshake.cause());
    assertEquals(expected, cause.reason(), cause.toString());
    c.settle(WAIT_SECONDS);
    assertFalse(c.channel.isOpen(), "channel still open");
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
   * failure of reason {@code expected}, and the channel closed ({@code sentNanos}, when the bad frame
   * was written, is no longer used for a wall-clock bound).
   */
  public static void assertFrameRefused(Connection c, Reason expected, byte[] honest, long sentNanos)
      throws Exception {
    c.settle(WAIT_SECONDS);
    assertFalse(c.channel.isOpen(), "channel still open");
    assertTrue(c.handshake.isSuccess(), "handshake had failed: " + c.handshake.cause());
    assertEquals(1, c.app.completions().size(), "completion events: " + c.app.completions());
    List<Throwable> exceptions = c.app.exceptions();
    assertEquals(1, exceptions.size(), "exceptions: " + exceptions);
    SecioException cause = assertInstanceOf(SecioException.class, exceptions.get(0));
    assertEquals(expected, cause.reason(), cause.toString());
    assertArrayEquals(honest, c.app.received(), "the application got other than the honest prefix");
  }
}
