package io.secio.streams.yamux;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.streams.MemoryBudget;
import java.time.Duration;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * {@link YamuxConfig}: the two profiles as {@code docs/STREAMS.md} §4.2 lists them, each value's
 * range checked at its edges, the values that follow the window by default, and a builder made from
 * a config giving the same config.
 */
class YamuxConfigTest {
  private static final int KIB = 1024;
  private static final int MIB = 1024 * 1024;

  private static void refused(UnaryOperator<YamuxConfig.Builder> change) {
    assertThrows(IllegalArgumentException.class, () -> change.apply(YamuxConfig.builder()).build());
  }

  private static YamuxConfig accepted(UnaryOperator<YamuxConfig.Builder> change) {
    return assertDoesNotThrow(() -> change.apply(YamuxConfig.builder()).build());
  }

  @Test
  void theTentacleProfileIsWhatACkbNodeRuns() {
    YamuxConfig c = YamuxConfig.tentacle();
    assertEquals(MIB, c.maxStreamWindow());
    assertEquals(MIB / 2, c.windowUpdateThreshold());
    assertEquals(64L * MIB, c.sessionWindow());
    assertEquals(64, c.maxStreams());
    assertEquals(256, c.ackBacklog());
    assertEquals(1024, c.maxUnreadControlFrames());
    assertEquals(MIB, c.maxFrameLength());
    assertEquals(MIB, c.maxSendFrame());
    assertEquals(Duration.ofSeconds(30), c.keepaliveInterval());
    assertEquals(Duration.ofSeconds(30), c.pingTimeout());
    assertEquals(Duration.ofSeconds(10), c.writeTimeout());
    assertTrue(c.windowInSyn());
    assertEquals(16 * KIB, c.notSentLowWater());
    assertTrue(c.budget().isEmpty());
    assertEquals("YamuxConfig{maxStreamWindow=1048576, windowUpdateThreshold=524288, sessionWindow=67108864, "
        + "maxStreams=64, ackBacklog=256, maxUnreadControlFrames=1024, maxFrameLength=1048576, maxSendFrame=1048576, "
        + "keepaliveInterval=PT30S, pingTimeout=PT30S, writeTimeout=PT10S, windowInSyn=true, notSentLowWater=16384}",
        c.toString());
  }

  @Test
  void theLibp2pProfileIsGoLibp2psYamux() {
    YamuxConfig c = YamuxConfig.libp2p();
    assertEquals(16 * MIB, c.maxStreamWindow());
    assertEquals(8 * MIB, c.windowUpdateThreshold());
    assertEquals(16 * MIB, c.maxFrameLength());
    assertEquals(64 * KIB, c.maxSendFrame());
    assertEquals(256, c.maxStreams());
    assertEquals(Duration.ofSeconds(10), c.pingTimeout());
    assertFalse(c.windowInSyn());
  }

  @Test
  void eachValueIsCheckedAtItsEdges() {
    refused(b -> b.notSentLowWater(-1));
    assertEquals(0, accepted(b -> b.notSentLowWater(0)).notSentLowWater());
    refused(b -> b.maxStreamWindow(256 * KIB - 1));
    accepted(b -> b.maxStreamWindow(256 * KIB));
    refused(b -> b.windowUpdateThreshold(MIB + 1));
    assertEquals(MIB, accepted(b -> b.windowUpdateThreshold(MIB)).windowUpdateThreshold());
    refused(b -> b.sessionWindow(256 * KIB - 1));
    accepted(b -> b.sessionWindow(256 * KIB));
    refused(b -> b.maxStreams(0));
    accepted(b -> b.maxStreams(1));
    refused(b -> b.ackBacklog(0));
    accepted(b -> b.ackBacklog(1));
    assertEquals(MIB, accepted(b -> b.maxSendFrame(0)).maxSendFrame(), "0: the window");
    assertEquals(1, accepted(b -> b.maxSendFrame(1)).maxSendFrame());
    refused(b -> b.maxUnreadControlFrames(0));
    assertEquals(1, accepted(b -> b.maxUnreadControlFrames(1)).maxUnreadControlFrames());
    refused(b -> b.maxFrameLength(MIB - 1));
    accepted(b -> b.maxFrameLength(MIB));
    accepted(b -> b.maxFrameLength(0xFFFF_FFFFL));
    refused(b -> b.maxFrameLength(0x1_0000_0000L));
    refused(b -> b.keepaliveInterval(Duration.ZERO));
    refused(b -> b.keepaliveInterval(Duration.ofSeconds(-1)));
    assertNull(accepted(b -> b.keepaliveInterval(null)).keepaliveInterval());
    assertThrows(NullPointerException.class, () -> YamuxConfig.builder().pingTimeout(null).build());
    assertThrows(NullPointerException.class, () -> YamuxConfig.builder().writeTimeout(null).build());
  }

  @Test
  void theValuesThatFollowTheWindowByDefaultFollowANewWindow() {
    YamuxConfig wide = YamuxConfig.tentacle().toBuilder().maxStreamWindow(4 * MIB).build();
    assertEquals(2 * MIB, wide.windowUpdateThreshold());
    assertEquals(4 * MIB, wide.maxFrameLength());
    assertEquals(4 * MIB, wide.maxSendFrame());
    YamuxConfig own = YamuxConfig.builder().windowUpdateThreshold(100).maxFrameLength(2 * MIB).maxSendFrame(5)
        .build().toBuilder().maxStreamWindow(2 * MIB).build();
    assertEquals(100, own.windowUpdateThreshold(), "a value set stays");
    assertEquals(2 * MIB, own.maxFrameLength());
    assertEquals(5, own.maxSendFrame());
  }

  @Test
  void aBuilderFromAConfigGivesTheSameConfig() {
    YamuxConfig c = YamuxConfig.builder().maxStreamWindow(2 * MIB).windowUpdateThreshold(123).sessionWindow(9 * MIB)
        .maxStreams(3).ackBacklog(4).maxUnreadControlFrames(5).maxFrameLength(3 * MIB).maxSendFrame(777)
        .keepaliveInterval(Duration.ofSeconds(7)).pingTimeout(Duration.ofSeconds(8))
        .writeTimeout(Duration.ofSeconds(9)).windowInSyn(false).notSentLowWater(1000).build();
    assertEquals(c.toString(), c.toBuilder().build().toString());
    assertEquals("YamuxConfig{maxStreamWindow=2097152, windowUpdateThreshold=123, sessionWindow=9437184, maxStreams=3, "
        + "ackBacklog=4, maxUnreadControlFrames=5, maxFrameLength=3145728, maxSendFrame=777, keepaliveInterval=PT7S, "
        + "pingTimeout=PT8S, writeTimeout=PT9S, windowInSyn=false, notSentLowWater=1000}", c.toString());
    MemoryBudget budget = MemoryBudget.of(1000);
    YamuxConfig shared = c.toBuilder().budget(budget).build();
    assertSame(budget, shared.budget().orElseThrow());
    assertSame(budget, shared.toBuilder().build().budget().orElseThrow(), "one budget, shared");
    assertTrue(shared.toString().endsWith("notSentLowWater=1000, budget=" + budget + "}"), shared.toString());
    assertTrue(shared.toBuilder().budget(null).build().budget().isEmpty());
  }
}
