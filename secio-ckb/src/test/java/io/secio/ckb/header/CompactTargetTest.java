package io.secio.ckb.header;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class CompactTargetTest {
  private static final BigInteger TWO_256 = BigInteger.ONE.shiftLeft(256);

  @Test
  void expandsAsCkbDoes() {
    assertEquals(new BigInteger("15555", 16).shiftLeft(8 * 27), CompactTarget.toTarget(0x1e015555));
    // e <= 3 shifts the mantissa right.
    assertEquals(BigInteger.valueOf(0x12), CompactTarget.toTarget(0x01123456));
    assertEquals(BigInteger.valueOf(0x1234), CompactTarget.toTarget(0x02123456));
    // The largest exponent that cannot overflow, and dev.toml's usual compact target.
    assertEquals(BigInteger.valueOf(0xffffff).shiftLeft(8 * 29), CompactTarget.toTarget(0x20ffffff));
    assertEquals(BigInteger.ONE.shiftLeft(8 * 29 + 16), CompactTarget.toTarget(0x20010000));
    assertEquals(BigInteger.ONE, CompactTarget.toTarget(0x01010000));
  }

  @Test
  void refusesZeroAndOverflow() {
    for (int compact : new int[] {0, 0x1d000000, 0x01000001, 0x02000080, 0x21000001, 0xff123456, 0x22010000}) {
      assertFalse(CompactTarget.isValid(compact), Integer.toHexString(compact));
      assertThrows(IllegalArgumentException.class, () -> CompactTarget.toTarget(compact));
      assertThrows(IllegalArgumentException.class, () -> CompactTarget.toDifficulty(compact));
    }
    assertTrue(CompactTarget.isValid(0x20ffffff));
    assertThrows(IllegalArgumentException.class, () -> CompactTarget.fromTarget(BigInteger.ZERO));
    assertThrows(IllegalArgumentException.class, () -> CompactTarget.fromTarget(TWO_256));
    assertThrows(IllegalArgumentException.class, () -> CompactTarget.fromDifficulty(BigInteger.ZERO));
  }

  @Test
  void difficultyIsTheHashSpaceOverTheTarget() {
    assertEquals(BigInteger.valueOf(0xc00030), CompactTarget.toDifficulty(0x1e015555));
    assertEquals(TWO_256.subtract(BigInteger.ONE), CompactTarget.toDifficulty(0x01010000));
    // CKB's DIFF_TWO: the easiest compact target whose difficulty is 2.
    assertEquals(BigInteger.TWO, CompactTarget.toDifficulty(0x20800000));
    assertEquals(0x20800000, CompactTarget.fromDifficulty(BigInteger.TWO));
    assertEquals(0x1e015555, CompactTarget.fromDifficulty(BigInteger.valueOf(0xc00030)));
  }

  static Stream<Long> seeds() {
    return Stream.of(1L, 2L, 3L, 4L, 5L);
  }

  /** A compact target CKB writes (normalized) survives target and back; a target loses only low bits. */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void targetAndCompactRoundTrip(long seed) {
    Random random = new Random(seed);
    for (int i = 0; i < 1000; i++) {
      BigInteger target = new BigInteger(1 + random.nextInt(256), random).max(BigInteger.ONE);
      int compact = CompactTarget.fromTarget(target);
      BigInteger back = CompactTarget.toTarget(compact);
      assertTrue(back.compareTo(target) <= 0, "seed " + seed + " target " + target);
      int keptBits = Math.min(target.bitLength(), 24 - (8 - target.bitLength() % 8) % 8);
      assertEquals(target.shiftRight(target.bitLength() - keptBits), back.shiftRight(target.bitLength() - keptBits),
          "seed " + seed);
      assertEquals(compact, CompactTarget.fromTarget(back), "seed " + seed);
    }
  }
}
