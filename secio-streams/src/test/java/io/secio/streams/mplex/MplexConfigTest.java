package io.secio.streams.mplex;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.streams.MemoryBudget;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * {@link MplexConfig}'s defaults (js-libp2p-mplex's), each bound's range checked at its edges, and a
 * builder made from a config giving the same config.
 */
class MplexConfigTest {
  private static final int MIB = 1024 * 1024;

  private static void refused(UnaryOperator<MplexConfig.Builder> change) {
    assertThrows(IllegalArgumentException.class, () -> change.apply(MplexConfig.builder()).build());
  }

  private static MplexConfig accepted(UnaryOperator<MplexConfig.Builder> change) {
    return assertDoesNotThrow(() -> change.apply(MplexConfig.builder()).build());
  }

  @Test
  void theDefaultsAreJsLibp2pMplexs() {
    MplexConfig c = MplexConfig.defaults();
    assertEquals(MIB, c.maxMessage());
    assertEquals(64 * 1024, c.maxSendMessage());
    assertEquals(4 * MIB, c.maxStreamBuffer());
    assertEquals(64 * MIB, c.maxSessionBuffer());
    assertEquals(1024, c.maxStreams());
    assertEquals(1024, c.maxUnreadControlFrames());
    assertEquals(16 * 1024, c.notSentLowWater());
    assertTrue(c.budget().isEmpty());
    assertEquals("MplexConfig(maxMessage=1048576, maxSendMessage=65536, maxStreamBuffer=4194304, "
        + "maxSessionBuffer=67108864, maxStreams=1024, maxUnreadControlFrames=1024, notSentLowWater=16384)", c.toString());
  }

  @Test
  void eachBoundIsCheckedAtItsEdges() {
    refused(b -> b.maxMessage(0));
    accepted(b -> b.maxMessage(1));
    accepted(b -> b.maxMessage(MIB));
    refused(b -> b.maxMessage(MIB + 1));
    refused(b -> b.maxSendMessage(0));
    accepted(b -> b.maxSendMessage(1));
    accepted(b -> b.maxSendMessage(MIB));
    refused(b -> b.maxSendMessage(MIB + 1));
    refused(b -> b.maxMessage(1000).maxStreamBuffer(999));
    accepted(b -> b.maxMessage(1000).maxStreamBuffer(1000));
    refused(b -> b.maxMessage(1000).maxSessionBuffer(999));
    assertEquals(1000, accepted(b -> b.maxMessage(1000).maxSessionBuffer(1000)).maxSessionBuffer());
    refused(b -> b.maxStreams(0));
    accepted(b -> b.maxStreams(1));
    refused(b -> b.maxUnreadControlFrames(0));
    accepted(b -> b.maxUnreadControlFrames(1));
    refused(b -> b.notSentLowWater(-1));
    assertEquals(0, accepted(b -> b.notSentLowWater(0)).notSentLowWater());
  }

  @Test
  void aBuilderFromAConfigGivesTheSameConfig() {
    MplexConfig c = MplexConfig.builder().maxMessage(1000).maxSendMessage(700).maxStreamBuffer(5000)
        .maxSessionBuffer(6000).maxStreams(7).maxUnreadControlFrames(9).notSentLowWater(33).build();
    assertEquals(c.toString(), c.toBuilder().build().toString());
    assertEquals(1000, c.maxMessage());
    assertEquals(700, c.maxSendMessage());
    assertEquals(5000, c.maxStreamBuffer());
    assertEquals(6000, c.maxSessionBuffer());
    assertEquals(7, c.maxStreams());
    assertEquals(9, c.maxUnreadControlFrames());
    assertEquals(33, c.notSentLowWater());
    MemoryBudget budget = MemoryBudget.of(1000);
    MplexConfig shared = c.toBuilder().budget(budget).build();
    assertSame(budget, shared.budget().orElseThrow());
    assertSame(budget, shared.toBuilder().build().budget().orElseThrow(), "one budget, shared");
    assertTrue(shared.toString().endsWith("notSentLowWater=33, budget=" + budget + ")"), shared.toString());
    assertTrue(shared.toBuilder().budget(null).build().budget().isEmpty());
  }

  @Test
  void theRefusalBoundIsOneBoundUnderTwoNames() {
    MplexConfig c = MplexConfig.builder().maxUnreadRefusals(5).build();
    assertEquals(5, c.maxUnreadControlFrames());
    assertEquals(5, c.maxUnreadRefusals());
  }
}
