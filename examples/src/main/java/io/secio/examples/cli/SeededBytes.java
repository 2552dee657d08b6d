package io.secio.examples.cli;

import io.netty.buffer.ByteBuf;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A reproducible stream of random-looking bytes: two instances with the same seed produce the same
 * bytes however the reads are chunked. A sender and its echo check each hold one, so a transfer of
 * any size is checked byte for byte without keeping what was sent. Byte {@code p} of the stream is
 * byte {@code p % 8} (little-endian) of {@code mix(seed + p / 8)}. Not cryptographic; not thread-safe.
 */
final class SeededBytes {
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final long seed;
  private final byte[] scratch = new byte[64 * 1024];
  private long position;

  SeededBytes(long seed) {
    this.seed = seed;
  }

  /** Bytes produced so far. */
  long position() {
    return position;
  }

  /** The next {@code length} bytes, into {@code dst} at {@code offset}. */
  void next(byte[] dst, int offset, int length) {
    int end = offset + length;
    int i = offset;
    while (i < end && (position & 7) != 0) {
      dst[i++] = byteAt(position++);
    }
    // Whole words at once: this runs at memory speed, so the generator never limits a transfer.
    for (; end - i >= 8; i += 8, position += 8) {
      LONGS.set(dst, i, mix(seed + (position >>> 3)));
    }
    while (i < end) {
      dst[i++] = byteAt(position++);
    }
  }

  /** Appends the next {@code length} bytes to {@code buf}. */
  void writeTo(ByteBuf buf, int length) {
    for (int done = 0; done < length; ) {
      int n = Math.min(scratch.length, length - done);
      next(scratch, 0, n);
      buf.writeBytes(scratch, 0, n);
      done += n;
    }
  }

  private byte byteAt(long p) {
    return (byte) (mix(seed + (p >>> 3)) >>> ((p & 7) << 3));
  }

  /** The SplitMix64 finalizer: consecutive inputs give unrelated outputs. */
  private static long mix(long x) {
    long z = x * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
