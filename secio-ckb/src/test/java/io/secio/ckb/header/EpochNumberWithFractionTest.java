package io.secio.ckb.header;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class EpochNumberWithFractionTest {

  @Test
  void splitsTheBitsAsCkb() {
    EpochNumberWithFraction epoch = EpochNumberWithFraction.fromFullValue(0x3e80001000000L);
    assertEquals(0, epoch.number());
    assertEquals(1, epoch.index());
    assertEquals(1000, epoch.length());
    assertEquals(epoch, EpochNumberWithFraction.of(0, 1, 1000));
    assertEquals("0(1/1000)", epoch.toString());
    EpochNumberWithFraction high = EpochNumberWithFraction.fromFullValue(0xff00_0708_0001_2345L);
    assertEquals(0x012345, high.number());
    assertEquals(0x0800, high.index());
    assertEquals(0x0007, high.length());
    assertFalse(high.isWellFormed());
    assertEquals(0xff00_0708_0001_2345L, high.fullValue());
    assertThrows(IllegalArgumentException.class, () -> EpochNumberWithFraction.of(1L << 24, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> EpochNumberWithFraction.of(0, 1 << 16, 1));
  }

  @Test
  void wellFormedAndGenesis() {
    assertTrue(EpochNumberWithFraction.GENESIS.isGenesis());
    assertFalse(EpochNumberWithFraction.GENESIS.isWellFormed());
    assertFalse(EpochNumberWithFraction.of(3, 5, 5).isWellFormed());
    assertTrue(EpochNumberWithFraction.of(3, 4, 5).isWellFormed());
  }

  @Test
  void successors() {
    EpochNumberWithFraction last = EpochNumberWithFraction.of(7, 999, 1000);
    assertEquals(EpochNumberWithFraction.of(8, 0, 1200), last.successor(1200));
    assertTrue(last.successor(1200).isSuccessorOf(last));
    assertEquals(EpochNumberWithFraction.of(7, 999, 1000), EpochNumberWithFraction.of(7, 998, 1000).successor(5));
    assertFalse(EpochNumberWithFraction.of(8, 1, 1200).isSuccessorOf(last));
    assertFalse(EpochNumberWithFraction.of(7, 999, 1001).isSuccessorOf(EpochNumberWithFraction.of(7, 998, 1000)));
    assertFalse(EpochNumberWithFraction.of(7, 5, 1000).isSuccessorOf(EpochNumberWithFraction.of(7, 3, 1000)));
    assertThrows(IllegalStateException.class, () -> EpochNumberWithFraction.of(1, 2, 2).successor(9));
  }

  @Test
  void ordersByNumberThenFraction() {
    assertTrue(EpochNumberWithFraction.of(1, 0, 10).compareTo(EpochNumberWithFraction.of(0, 9, 10)) > 0);
    assertTrue(EpochNumberWithFraction.of(1, 1, 3).compareTo(EpochNumberWithFraction.of(1, 1, 2)) < 0);
    assertEquals(0, EpochNumberWithFraction.of(1, 1, 2).compareTo(EpochNumberWithFraction.of(1, 2, 4)));
    assertNotEquals(EpochNumberWithFraction.of(1, 1, 2), EpochNumberWithFraction.of(1, 2, 4));
  }
}
