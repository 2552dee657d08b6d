package io.secio.streams.yamux;

/**
 * The yamux frame format, in one place ({@code docs/STREAMS.md} §4): the header, its fields' values
 * and limits. {@link YamuxFrameReader} reads frames with it and {@link YamuxFrameWriter} writes them;
 * nothing else spells a type or a flag.
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

  /** Whether {@code flags} hold SYN: the frame opens its stream (or, on a Ping, asks for an answer). */
  static boolean syn(int flags) {
    return (flags & FLAG_SYN) != 0;
  }

  /** Whether {@code flags} hold ACK: the frame accepts its stream (or, on a Ping, answers one). */
  static boolean ack(int flags) {
    return (flags & FLAG_ACK) != 0;
  }

  /** Whether {@code flags} hold FIN: the sender half-closes the stream after this frame. */
  static boolean fin(int flags) {
    return (flags & FLAG_FIN) != 0;
  }

  /** Whether {@code flags} hold RST: the sender resets the stream. */
  static boolean rst(int flags) {
    return (flags & FLAG_RST) != 0;
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
