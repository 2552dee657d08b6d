package io.secio.examples.cli;

import io.netty.buffer.ByteBuf;

/**
 * A reproducible stream of random-looking bytes: two instances with the same seed produce the same
 * bytes however the reads are chunked. A sender and its echo check each hold one, so a transfer of
 * any size is checked byte for byte without keeping what was sent. Not cryptographic; not
 * thread-safe.
 */
final class SeededBytes {
  private final long seed;
  private long position;
  private long word;

  SeededBytes(long seed) {
    this.seed = seed;
  }

  /** Bytes produced so far. */
  long position() {
    return position;
  }

  /** The next {@code length} bytes, into {@code dst} at {@code offset}. */
  void next(byte[] dst, int offset, int length) {
    for (int i = 0; i < length; i++) {
      long p = position++;
      int shift = (int) (p & 7);
      if (shift == 0 || i == 0) {
        word = mix(seed + (p >>> 3));
      }
      dst[offset + i] = (byte) (word >>> (shift << 3));
    }
  }

  /** Appends the next {@code length} bytes to {@code buf}. */
  void writeTo(ByteBuf buf, int length) {
    byte[] chunk = new byte[length];
    next(chunk, 0, length);
    buf.writeBytes(chunk);
  }

  /** The SplitMix64 finalizer: consecutive inputs give unrelated outputs. */
  private static long mix(long x) {
    long z = x * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
