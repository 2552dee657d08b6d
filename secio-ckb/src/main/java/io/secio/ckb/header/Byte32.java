package io.secio.ckb.header;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * 32 bytes: a block hash, a PoW hash, a Merkle root, the DAO field, in CKB's {@code Byte32}. Its
 * text form is CKB's RPC form, {@code 0x} and 64 lower-case hex digits.
 *
 * <p>Immutable and thread-safe; equal when the bytes are.
 */
public final class Byte32 implements Comparable<Byte32> {
  /** Its size. */
  public static final int SIZE_IN_BYTES = 32;

  /** All zeros: a genesis header's parent hash, an empty uncles hash. */
  public static final Byte32 ZERO = new Byte32(new byte[SIZE_IN_BYTES]);

  private final byte[] bytes;
  private final int hashCode;

  private Byte32(byte[] bytes) {
    this.bytes = bytes;
    this.hashCode = Arrays.hashCode(bytes);
  }

  /**
   * The value of {@code bytes}, copied.
   *
   * @param bytes 32 bytes
   * @return the value
   * @throws IllegalArgumentException if there are not 32 bytes
   */
  public static Byte32 of(byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    if (bytes.length != SIZE_IN_BYTES) {
      throw new IllegalArgumentException("a Byte32 has 32 bytes, not " + bytes.length);
    }
    return new Byte32(bytes.clone());
  }

  /**
   * The value of {@code bytes[offset, offset + 32)}, copied.
   *
   * @param bytes holds the value
   * @param offset where it starts
   * @return the value
   */
  public static Byte32 of(byte[] bytes, int offset) {
    return new Byte32(Arrays.copyOfRange(bytes, offset, offset + SIZE_IN_BYTES));
  }

  /**
   * Parses CKB's RPC form, {@code 0x} and exactly 64 lower-case hex digits.
   *
   * @param text the text
   * @return the value
   * @throws IllegalArgumentException if the text is anything else
   */
  public static Byte32 parse(String text) {
    Objects.requireNonNull(text, "text");
    if (text.length() != 2 + 2 * SIZE_IN_BYTES || !text.startsWith("0x") || !isLowerHex(text, 2)) {
      throw new IllegalArgumentException("a Byte32 is 0x and 64 lower-case hex digits, not " + abbreviate(text));
    }
    return new Byte32(HexFormat.of().parseHex(text, 2, text.length()));
  }

  static boolean isLowerHex(String text, int from) {
    for (int i = from; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    return true;
  }

  /** A text cut to a length fit for an error message. */
  static String abbreviate(String text) {
    return text.length() <= 80 ? '"' + text + '"' : '"' + text.substring(0, 77) + "...\"";
  }

  /** The 32 bytes (a copy). */
  public byte[] toBytes() {
    return bytes.clone();
  }

  /**
   * Copies the 32 bytes into {@code out} at {@code offset}.
   *
   * @param out the destination
   * @param offset where they go
   */
  public void copyTo(byte[] out, int offset) {
    System.arraycopy(bytes, 0, out, offset, SIZE_IN_BYTES);
  }

  /** Whether every byte is zero. */
  public boolean isZero() {
    return equals(ZERO);
  }

  /** Compares the bytes as unsigned, first byte first. */
  @Override
  public int compareTo(Byte32 other) {
    return Arrays.compareUnsigned(bytes, other.bytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Byte32 other && hashCode == other.hashCode && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return hashCode;
  }

  /** CKB's RPC form: {@code 0x} and 64 lower-case hex digits. */
  @Override
  public String toString() {
    return "0x" + HexFormat.of().formatHex(bytes);
  }
}
