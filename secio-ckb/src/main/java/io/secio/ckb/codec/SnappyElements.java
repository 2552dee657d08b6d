package io.secio.ckb.codec;

/**
 * The element structure of a snappy raw block, walked as the Rust {@code snap} decoder walks it (CKB's
 * reader), without copying a byte: each literal and copy whole, every copy from inside what came
 * before it, and exactly the announced length in all. Netty's {@code Snappy} then does the decoding;
 * this walk is here because Netty's decoder is a stream decoder: at an element cut short it stops and
 * waits for more input, where a whole block must be refused.
 *
 * <pre>
 * tag & 3 = 0  literal   length (tag >> 2) + 1, or for 60..63 the next 1..4 bytes LE + 1; then the bytes
 * tag & 3 = 1  copy      length 4 + ((tag >> 2) & 7), offset (tag & 0xe0) << 3 | next byte
 * tag & 3 = 2  copy      length (tag >> 2) + 1, offset the next 2 bytes LE
 * tag & 3 = 3  copy      length (tag >> 2) + 1, offset the next 4 bytes LE
 * </pre>
 *
 * Stateless.
 */
final class SnappyElements {
  private SnappyElements() {}

  /**
   * Why {@code elements} is not a block of {@code announced} bytes, or null if it is.
   *
   * @param elements the block after its length varint
   * @param announced the length the block announced
   */
  static String refusal(byte[] elements, long announced) {
    int s = 0;
    int end = elements.length;
    long d = 0;
    while (s < end) {
      int tag = elements[s++] & 0xFF;
      long length;
      if ((tag & 3) == 0) {
        length = (tag >>> 2) + 1;
        if (length > 60) {
          int bytes = (int) length - 60;
          // snap wants 4 bytes here whatever the count: a literal this long is longer anyway.
          if (end - s < 4) {
            return "a literal's length cut short";
          }
          length = (le(elements, s, 4) & (0xFFFF_FFFFL >>> (8 * (4 - bytes)))) + 1;
          s += bytes;
        }
        if (length > end - s || length > announced - d) {
          return "a literal of " + length + " bytes past the block's end";
        }
        s += (int) length;
      } else {
        int offsetBytes = (tag & 3) == 1 ? 1 : (tag & 3) == 2 ? 2 : 4;
        if (end - s < offsetBytes) {
          return "a copy's offset cut short";
        }
        long offset;
        if (offsetBytes == 1) {
          length = 4 + ((tag >>> 2) & 7);
          offset = (tag & 0xE0) << 3 | elements[s] & 0xFF;
        } else {
          length = (tag >>> 2) + 1;
          offset = le(elements, s, offsetBytes);
        }
        s += offsetBytes;
        if (offset == 0 || offset > d) {
          return "a copy from before the block's start";
        }
        if (length > announced - d) {
          return "a copy past the block's end";
        }
      }
      d += length;
    }
    return d == announced ? null : "a block of " + d + " bytes announcing " + announced;
  }

  /** The {@code n}-byte little-endian number at {@code at}. */
  private static long le(byte[] b, int at, int n) {
    long v = 0;
    for (int i = n - 1; i >= 0; i--) {
      v = v << 8 | b[at + i] & 0xFF;
    }
    return v;
  }
}
