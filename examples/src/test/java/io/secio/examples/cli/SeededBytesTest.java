package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SeededBytesTest {
  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {0, 1, -1, 0x5ec10L})
  void anyChunkingGivesTheSameBytes(long seed) {
    byte[] whole = new byte[10_000];
    new SeededBytes(seed).next(whole, 0, whole.length);

    Random chunks = new Random(seed);
    byte[] pieced = new byte[whole.length];
    SeededBytes bytes = new SeededBytes(seed);
    for (int offset = 0; offset < pieced.length; ) {
      int length = Math.min(pieced.length - offset, chunks.nextInt(20));
      bytes.next(pieced, offset, length);
      offset += length;
    }
    assertArrayEquals(whole, pieced, "seed " + seed);

    byte[] other = new byte[whole.length];
    new SeededBytes(seed + 1).next(other, 0, other.length);
    assertFalse(Arrays.equals(whole, other), "another seed, other bytes");
  }
}
