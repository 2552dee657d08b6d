package io.secio.fuzz;

import java.io.ByteArrayOutputStream;

/**
 * Writes seed files for {@code @FuzzTest}s that read a {@code FuzzedDataProvider}: the inverse of the
 * few methods the targets call. Jazzer's provider follows libFuzzer's {@code FuzzedDataProvider.h}:
 * byte arrays come from the front of the input in order, integers from the back, the first one from
 * the very last byte, each integer of range {@code r} taking {@code ceil(bits(r) / 8)} bytes, the
 * first byte taken being the most significant. {@link SeedCorpusTest} reads every seed back through
 * Jazzer's own provider, so a drift in this layout fails a test instead of silently weakening seeds.
 * Not thread-safe.
 */
final class FuzzedDataWriter {
  private final ByteArrayOutputStream front = new ByteArrayOutputStream();
  /** The bytes for the back, in the order the provider takes them (last byte of the file first). */
  private final ByteArrayOutputStream back = new ByteArrayOutputStream();

  /** What {@code consumeInt(min, max)} will return. */
  FuzzedDataWriter integer(int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(value + " not in [" + min + ", " + max + "]");
    }
    long range = (long) max - min;
    long offset = (long) value - min;
    int bytes = 0;
    while (bytes < 4 && (range >>> (8 * bytes)) > 0) {
      bytes++;
    }
    for (int i = bytes - 1; i >= 0; i--) {
      back.write((int) (offset >>> (8 * i)));
    }
    return this;
  }

  /** What {@code consumeBoolean()} will return. */
  FuzzedDataWriter bool(boolean value) {
    back.write(value ? 1 : 0);
    return this;
  }

  /** What {@code consumeBytes(n)} with {@code n >= bytes.length} will return. */
  FuzzedDataWriter bytes(byte[] bytes) {
    front.writeBytes(bytes);
    return this;
  }

  /** What {@code consumeBytes(consumeInt(0, maxLength))} will return. */
  FuzzedDataWriter sized(byte[] bytes, int maxLength) {
    integer(bytes.length, 0, maxLength);
    return bytes(bytes);
  }

  byte[] toByteArray() {
    byte[] f = front.toByteArray();
    byte[] b = back.toByteArray();
    byte[] out = new byte[f.length + b.length];
    System.arraycopy(f, 0, out, 0, f.length);
    for (int i = 0; i < b.length; i++) {
      out[out.length - 1 - i] = b[i];
    }
    return out;
  }
}
