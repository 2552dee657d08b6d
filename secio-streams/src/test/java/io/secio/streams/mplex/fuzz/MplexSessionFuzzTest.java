package io.secio.streams.mplex.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.secio.streams.FuzzedSession;
import io.secio.streams.mplex.MplexConfig;
import io.secio.streams.mplex.MplexException;
import io.secio.streams.mplex.MplexHandler;
import io.secio.streams.mplex.MplexWire;
import java.io.ByteArrayOutputStream;
import java.util.Set;

/**
 * An mplex session fed any peer bytes, cut into chunks chosen by the input itself ({@code
 * docs/FUZZING.md}): only an {@link MplexException} escapes; after it the connection is closed and no
 * stream is handed another byte; everything the session wrote parses as minimal mplex frames, each
 * with a receiver's flag (this side never opens a stream, so it only answers on the peer's); no more
 * streams are open than the cap; no buffer leaks. The streams echo what they read ({@link
 * FuzzedSession}), so the session's sending side runs too. Seeds: {@code MplexWire} frames, one file per dialogue (a stream opened, fed
 * and closed; two streams; a reset; the violations of {@code MplexHostileTest}).
 */
class MplexSessionFuzzTest {
  private static final int MAX_STREAMS = 4;
  /** The flags of MessageReceiver, CloseReceiver and ResetReceiver. */
  private static final Set<Integer> RECEIVER_FLAGS = Set.of(1, 3, 5);

  @FuzzTest(maxDuration = "2m")
  void anyPeerBytes(byte[] input) {
    try (FuzzedSession session = new FuzzedSession(streams -> MplexHandler.create(
        MplexConfig.builder().maxStreams(MAX_STREAMS).maxUnreadRefusals(16).build(), streams))) {
      MplexException failure = session.feed(input, MplexException.class);
      assertTrue(session.mostOpen() <= MAX_STREAMS, "streams open at once: " + session.mostOpen());
      if (failure != null) {
        long before = session.delivered();
        session.channel.runPendingTasks();
        assertFalse(session.channel.isOpen(), "closed after " + failure);
        assertEquals(0, session.open(), "every stream ended with the session");
        assertEquals(before, session.delivered(), "nothing delivered after " + failure);
      }
      checkFrames(session.written());
    }
  }

  /** {@code bytes} are whole minimal frames (they re-encode to themselves), each a receiver's. */
  private static void checkFrames(byte[] bytes) {
    ByteArrayOutputStream again = new ByteArrayOutputStream();
    for (MplexWire.Frame f : MplexWire.parse(bytes)) {
      assertTrue(RECEIVER_FLAGS.contains(f.flag()), "a receiver's flag: " + f);
      assertTrue(f.data().length <= MplexConfig.DEFAULT_MAX_SEND_MESSAGE_IN_BYTES, "a message within the bound: " + f);
      again.writeBytes(MplexWire.bytes(f.id(), f.flag(), f.data()));
    }
    assertArrayEquals(bytes, again.toByteArray(), "whole, minimal frames");
  }
}
