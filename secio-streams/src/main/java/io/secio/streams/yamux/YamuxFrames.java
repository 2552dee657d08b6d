package io.secio.streams.yamux;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * The yamux frame format, in one place ({@code docs/STREAMS.md} §4): the header, its fields' values,
 * the checked length, and the header's writing. The decoder and the session both use it.
 *
 * <pre>
 *   byte 0          1               2               3
 *  +---------------+---------------+-------------------------------+
 *  | version = 0   | type          | flags (u16 BE)                |
 *  +---------------+---------------+-------------------------------+
 *  | stream id (u32 BE); 0 for Ping and GoAway                     |
 *  +---------------------------------------------------------------+
 *  | length (u32 BE)                                               |
 *  +---------------------------------------------------------------+
 *  | body: length bytes, Data frames only                          ...
 *
 *  type   0 Data          length = body size
 *         1 WindowUpdate  length = credit added to the stream's send window
 *         2 Ping          length = opaque value, echoed in the ACK
 *         3 GoAway        length = code: 0 normal, 1 protocol error, 2 internal error
 *  flags  1 SYN (opens a stream; a ping request)   2 ACK (accepts a stream; a ping answer)
 *         4 FIN (half-close)                       8 RST (reset)
 * </pre>
 *
 * <p>Immutable constants and static methods; thread-safe.
 */
final class YamuxFrames {
  /** Header size in bytes. */
  static final int HEADER_SIZE_IN_BYTES = 12;
  /** The only version there is. */
  static final int VERSION = 0;

  static final int TYPE_DATA = 0;
  static final int TYPE_WINDOW_UPDATE = 1;
  static final int TYPE_PING = 2;
  static final int TYPE_GO_AWAY = 3;

  static final int FLAG_SYN = 1;
  static final int FLAG_ACK = 2;
  static final int FLAG_FIN = 4;
  static final int FLAG_RST = 8;

  static final int GO_AWAY_NORMAL = 0;
  static final int GO_AWAY_PROTOCOL_ERROR = 1;
  static final int GO_AWAY_INTERNAL_ERROR = 2;

  /** The window every stream starts with, both ways, before any WindowUpdate. */
  static final int INITIAL_WINDOW_IN_BYTES = 256 * 1024;
  /** The largest value of a u32 field: stream ids, lengths, windows. */
  static final long MAX_U32 = 0xFFFF_FFFFL;

  private YamuxFrames() {}

  /** A header with {@code extra} bytes of room after it (for a small body copied in). */
  static ByteBuf header(ByteBufAllocator alloc, int type, int flags, long streamId, long length, int extra) {
    ByteBuf header = alloc.ioBuffer(HEADER_SIZE_IN_BYTES + extra);
    header.writeByte(VERSION);
    header.writeByte(type);
    header.writeShort(flags);
    header.writeInt((int) streamId);
    header.writeInt((int) length);
    return header;
  }

  /**
   * The length check, from the header alone and before any of the body is held: a Data frame over
   * {@code maxDataLength} ends the session (tentacle: over its max stream window).
   */
  static void checkDataLength(long length, long maxDataLength) throws YamuxException {
    if (length > maxDataLength) {
      throw new YamuxException(YamuxException.Reason.FRAME_TOO_LONG,
          "Data frame of " + length + " bytes, over the limit of " + maxDataLength);
    }
  }

  /** The type's name, for messages. */
  static String typeName(int type) {
    switch (type) {
      case TYPE_DATA:
        return "Data";
      case TYPE_WINDOW_UPDATE:
        return "WindowUpdate";
      case TYPE_PING:
        return "Ping";
      case TYPE_GO_AWAY:
        return "GoAway";
      default:
        return "type " + type;
    }
  }
}
