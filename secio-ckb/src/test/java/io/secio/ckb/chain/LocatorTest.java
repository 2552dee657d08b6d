package io.secio.ckb.chain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.ckb.header.Byte32;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LocatorTest {
  /** A block's "hash": its number in the first 8 bytes. */
  private static Byte32 at(long number) {
    byte[] bytes = new byte[32];
    for (int i = 0; i < 8; i++) {
      bytes[i] = (byte) (number >>> (56 - 8 * i));
    }
    return Byte32.of(bytes);
  }

  private static List<Long> numbers(List<Byte32> locator) {
    List<Long> out = new ArrayList<>();
    for (Byte32 hash : locator) {
      long n = 0;
      byte[] bytes = hash.toBytes();
      for (int i = 0; i < 8; i++) {
        n = (n << 8) | (bytes[i] & 0xff);
      }
      out.add(n);
    }
    return out;
  }

  private static List<Long> locator(long start, long lowest) {
    return numbers(Locator.build(start, LocatorTest::at, lowest, at(0)));
  }

  @Test
  void stepsOneTenTimesThenDoublesEndingWithGenesis() {
    assertEquals(List.of(30L, 29L, 28L, 27L, 26L, 25L, 24L, 23L, 22L, 21L, 19L, 15L, 0L), locator(30, 0));
    assertEquals(List.of(0L), locator(0, 0));
    assertEquals(List.of(3L, 2L, 1L, 0L), locator(3, 0));
  }

  @Test
  void aHighStartAlsoHalvesDownTowardsLowHeights() {
    List<Long> locator = locator(100_000, 0);
    assertEquals(100_000L, locator.get(0));
    assertEquals(0L, locator.get(locator.size() - 1));
    // After the doubling steps it halves the height while above 8192.
    assertTrue(locator.get(locator.size() - 2) <= 8192 * 2, locator::toString);
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4})
  void boundedNewestFirstGenesisLast(long seed) {
    Random random = new Random(seed);
    for (int i = 0; i < 500; i++) {
      long start = random.nextInt(4) == 0 ? random.nextLong() >>> 2 : random.nextInt(20_000_000);
      long lowest = random.nextBoolean() ? 0 : (long) (start * random.nextDouble());
      List<Long> locator = locator(start, lowest);
      assertTrue(locator.size() <= Locator.MAX_HASHES, () -> "seed " + seed + " " + locator.size());
      assertEquals(start, locator.get(0));
      assertEquals(0L, locator.get(locator.size() - 1));
      for (int k = 1; k < locator.size(); k++) {
        assertTrue(locator.get(k) < locator.get(k - 1), () -> "seed " + seed + " " + locator);
        assertTrue(locator.get(k) >= lowest || locator.get(k) == 0, () -> "seed " + seed + " " + locator);
      }
      for (int k = 1; k < Math.min(10, locator.size() - 1); k++) {
        assertEquals(start - k, locator.get(k));
      }
    }
  }

  @Test
  void fromACheckpointJumpsToGenesis() {
    assertEquals(List.of(1005L, 1004L, 1003L, 1002L, 1001L, 1000L, 0L), locator(1005, 1000));
    assertEquals(List.of(1000L, 0L), locator(1000, 1000));
  }
}
