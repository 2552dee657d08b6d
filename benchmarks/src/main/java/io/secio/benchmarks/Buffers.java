package io.secio.benchmarks;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;

/** Test data for the benchmarks. */
final class Buffers {
  private Buffers() {}

  /** A direct buffer of {@code size} seeded random bytes, ready to read. */
  static ByteBuffer random(int size) {
    ByteBuffer b = ByteBuffer.allocateDirect(size);
    SplittableRandom random = new SplittableRandom(size);
    while (b.hasRemaining()) {
      b.put((byte) random.nextInt());
    }
    return b.flip();
  }
}
