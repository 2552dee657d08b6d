package io.secio.libp2p;

import io.netty.buffer.ByteBuf;

/**
 * The uvarint length prefix of identify's message ({@code docs/STREAMS.md} §10): written minimal,
 * read with the bound checked on the prefix itself, before the message is held.
 *
 * <p>Static methods; thread-safe.
 */
final class LengthPrefix {
  /** A prefix of more bytes than this is over any bound an int can hold. */
  private static final int MAX_BYTES = 5;

  private LengthPrefix() {}

  static void write(ByteBuf out, int length) {
    while ((length & ~0x7F) != 0) {
      out.writeByte(length & 0x7F | 0x80);
      length >>>= 7;
    }
    out.writeByte(length);
  }

  /**
   * The length {@code in} begins with, reading past it; -1 (nothing read) when the prefix is not
   * whole yet.
   *
   * @throws Libp2pException {@code IDENTIFY_TOO_LARGE} when it is over {@code max}
   */
  static int read(ByteBuf in, int max) throws Libp2pException {
    long value = 0;
    int start = in.readerIndex();
    for (int i = 0; i < MAX_BYTES; i++) {
      if (!in.isReadable(i + 1)) {
        return -1;
      }
      int b = in.getUnsignedByte(start + i);
      value |= (long) (b & 0x7F) << (7 * i);
      if (value > max) {
        throw new Libp2pException(Libp2pException.Reason.IDENTIFY_TOO_LARGE, "a message of " + value
            + (b >= 0x80 ? "+" : "") + " bytes announced, over " + max);
      }
      if (b < 0x80) {
        in.skipBytes(i + 1);
        return (int) value;
      }
    }
    throw new Libp2pException(Libp2pException.Reason.IDENTIFY_TOO_LARGE, "a length prefix over " + MAX_BYTES
        + " bytes");
  }
}
