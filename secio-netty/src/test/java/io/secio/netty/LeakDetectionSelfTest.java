package io.secio.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Proves that {@link FailOnLeaks} really sees a leak, so a green run means no leak was there. */
class LeakDetectionSelfTest {

  @Test
  void runsAtParanoidLevel() {
    assertEquals(ResourceLeakDetector.Level.PARANOID, ResourceLeakDetector.getLevel());
  }

  @Test
  void unreleasedBufferIsReported() {
    FailOnLeaks.install();
    FailOnLeaks.collectAndPoll();
    FailOnLeaks.drain();

    leakOneBuffer();
    FailOnLeaks.collectAndPoll();

    List<String> leaks = FailOnLeaks.drain();
    assertFalse(leaks.isEmpty(), "a deliberately leaked buffer was not reported");
    assertTrue(leaks.get(0).contains("leakOneBuffer"), leaks.get(0));
  }

  private static void leakOneBuffer() {
    ByteBuf buf = ByteBufAllocator.DEFAULT.directBuffer(64);
    buf.writeLong(42);
    // Dropped without release on purpose.
  }
}
