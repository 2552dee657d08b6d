package io.secio.ckb.message;

import io.secio.molecule.Molecule;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A part of a message that a {@link MoleculeType} has verified, read without checks: a table's
 * fields, a dynvec's items, a fixvec's body, a union's item, little-endian numbers. Reading an
 * unverified slice may throw {@code IndexOutOfBoundsException}. Immutable; shares the bytes.
 */
final class Slice {
  private static final int N = Molecule.NUMBER_SIZE_IN_BYTES;

  private final byte[] bytes;
  private final int from;
  private final int to;

  Slice(byte[] bytes, int from, int to) {
    this.bytes = bytes;
    this.from = from;
    this.to = to;
  }

  static Slice of(byte[] bytes) {
    return new Slice(bytes, 0, bytes.length);
  }

  int length() {
    return to - from;
  }

  boolean isEmpty() {
    return to == from;
  }

  /** Field {@code i} of a table, or item {@code i} of a dynvec. */
  Slice field(int i) {
    int start = (int) Molecule.u32(bytes, from + N * (1 + i));
    int end = i + 1 < fieldCount() ? (int) Molecule.u32(bytes, from + N * (2 + i)) : length();
    return new Slice(bytes, from + start, from + end);
  }

  /** How many fields a table has (or items a dynvec), as its header says. */
  int fieldCount() {
    return length() == N ? 0 : (int) (Molecule.u32(bytes, from + N) / N) - 1;
  }

  /** How many items a fixvec holds. */
  int count() {
    return (int) Molecule.u32(bytes, from);
  }

  /** Item {@code i} of a fixvec of {@code size}-byte items. */
  Slice item(int i, int size) {
    int start = from + N + i * size;
    return new Slice(bytes, start, start + size);
  }

  /** The body of a {@code Bytes} fixvec. */
  byte[] fixvecBody() {
    return Arrays.copyOfRange(bytes, from + N, to);
  }

  /** A union's item id. */
  int unionId() {
    return (int) Molecule.u32(bytes, from);
  }

  /** A union's item. */
  Slice unionItem() {
    return new Slice(bytes, from + N, to);
  }

  long u32() {
    return Molecule.u32(bytes, from);
  }

  long u64() {
    return ByteBuffer.wrap(bytes, from, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
  }

  int u16() {
    return Short.toUnsignedInt(ByteBuffer.wrap(bytes, from, 2).order(ByteOrder.LITTLE_ENDIAN).getShort());
  }

  int u8() {
    return bytes[from] & 0xFF;
  }

  /** A copy of the bytes. */
  byte[] toBytes() {
    return Arrays.copyOfRange(bytes, from, to);
  }
}
