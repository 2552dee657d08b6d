package io.secio.streams.yamux.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.secio.streams.FuzzedSession;
import io.secio.streams.yamux.YamuxConfig;
import io.secio.streams.yamux.YamuxException;
import io.secio.streams.yamux.YamuxHandler;
import java.nio.ByteBuffer;

/**
 * A yamux listener fed any bytes, cut into chunks chosen by the input itself ({@code docs/FUZZING.md}):
 * only a {@link YamuxException} escapes; after it the connection is closed and the last frame
 * written is the GoAway its reason calls for; everything the session wrote parses as yamux frames;
 * no more streams are open than the cap; no buffer leaks. The streams echo what they read, so the
 * session's sending side runs too. Seeds: every probe of {@code probes.json} under 100 KB, as the
 * probing client sent it.
 */
class YamuxSessionFuzzTest {
  private static final int MAX_STREAMS = 4;

  @FuzzTest(maxDuration = "2m")
  void anyPeerBytes(byte[] input) {
    try (FuzzedSession session = new FuzzedSession(streams -> YamuxHandler.server(
        YamuxConfig.tentacle().toBuilder().maxStreams(MAX_STREAMS).build(), streams))) {
      YamuxException failure = session.feed(input, YamuxException.class); // GoAway 0 closes it too
      assertTrue(session.mostOpen() <= MAX_STREAMS, "streams open at once: " + session.mostOpen());
      long lastGoAway = frames(session.written());
      if (failure != null) {
        assertFalse(session.channel.isOpen(), "closed after " + failure);
        if (failure.reason().goAwayCode() >= 0) {
          assertEquals(failure.reason().goAwayCode(), lastGoAway, "the last frame is GoAway " + failure.reason());
        }
      }
    }
  }

  /** Checks {@code bytes} are whole yamux frames; returns the code of the last one if a GoAway, else -1. */
  private static long frames(byte[] bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    long last = -1;
    while (b.hasRemaining()) {
      assertTrue(b.remaining() >= 12, "a whole header");
      assertEquals(0, b.get(), "version");
      int type = b.get();
      b.getShort();
      b.getInt();
      long length = b.getInt() & 0xFFFF_FFFFL;
      assertTrue(type >= 0 && type <= 3, "type " + type);
      if (type == 0) {
        assertTrue(length <= b.remaining(), "a whole body");
        b.position(b.position() + (int) length);
      }
      last = type == 3 ? length : -1;
    }
    return last;
  }
}
