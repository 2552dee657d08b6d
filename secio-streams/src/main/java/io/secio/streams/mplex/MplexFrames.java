package io.secio.streams.mplex;

/**
 * The mplex frame ({@code docs/STREAMS.md} §9.1), the one place that holds its flags and its varint
 * limits. {@link MplexFrameReader} reads frames with it and {@link MplexFrameWriter} writes them;
 * nothing else spells a flag.
 *
 * <pre>
 *  +-------------------------------+-------------------------+----------------------+
 *  | header: uvarint               | length: uvarint         | data: length bytes   |
 *  |   = stream id &lt;&lt; 3 | flag     |   at most 1 MiB         |                      |
 *  +-------------------------------+-------------------------+----------------------+
 *
 *  flag 0 NewStream         data = the stream's name (ours: its id in decimal)
 *       1 MessageReceiver   data from the side that accepted the stream
 *       2 MessageInitiator  data from the side that opened it
 *       3 CloseReceiver     4 CloseInitiator   half-close, length 0
 *       5 ResetReceiver     6 ResetInitiator   reset, length 0
 * </pre>
 *
 * <p>Each side numbers the streams it opens from 0 up; the flag says whose id it is, so the peer's
 * stream 3 and ours are two streams. Varints are minimal unsigned LEB128: a header of at most {@value
 * #MAX_HEADER_VARINT_BYTES} bytes (ids up to 2^60 - 1), a length of at most {@value
 * #MAX_LENGTH_VARINT_BYTES} (enough for 1 MiB; a longer one cannot be a length this side accepts).
 *
 * <p>Immutable constants and static methods; thread-safe.
 */
final class MplexFrames {
  static final int NEW_STREAM = 0;
  static final int MESSAGE_RECEIVER = 1;
  static final int MESSAGE_INITIATOR = 2;
  static final int CLOSE_RECEIVER = 3;
  static final int CLOSE_INITIATOR = 4;
  static final int RESET_RECEIVER = 5;
  static final int RESET_INITIATOR = 6;

  /** The spec's message limit (js-libp2p-mplex and go-mplex: 1 MiB, that size included). */
  static final int MAX_MESSAGE_IN_BYTES = 1 << 20;
  /** The largest stream id: 60 bits, so that id &lt;&lt; 3 | flag fits 63 bits. */
  static final long MAX_STREAM_ID = (1L << 60) - 1;
  /** 63 bits of header in 7-bit groups. */
  static final int MAX_HEADER_VARINT_BYTES = 9;
  /** 21 bits hold 2^20; no accepted length needs a fourth byte. */
  static final int MAX_LENGTH_VARINT_BYTES = 3;

  private MplexFrames() {}

  /** The flag a side uses for a message on a stream it opened ({@code initiator}) or accepted. */
  static int message(boolean initiator) {
    return initiator ? MESSAGE_INITIATOR : MESSAGE_RECEIVER;
  }

  static int close(boolean initiator) {
    return initiator ? CLOSE_INITIATOR : CLOSE_RECEIVER;
  }

  static int reset(boolean initiator) {
    return initiator ? RESET_INITIATOR : RESET_RECEIVER;
  }

  /** Whether a frame with {@code flag} was sent by its stream's initiator (NewStream included). */
  static boolean fromInitiator(int flag) {
    return flag == NEW_STREAM || flag == MESSAGE_INITIATOR || flag == CLOSE_INITIATOR || flag == RESET_INITIATOR;
  }

  static String flagName(int flag) {
    switch (flag) {
      case NEW_STREAM: return "NewStream";
      case MESSAGE_RECEIVER: return "MessageReceiver";
      case MESSAGE_INITIATOR: return "MessageInitiator";
      case CLOSE_RECEIVER: return "CloseReceiver";
      case CLOSE_INITIATOR: return "CloseInitiator";
      case RESET_RECEIVER: return "ResetReceiver";
      case RESET_INITIATOR: return "ResetInitiator";
      default: return "flag " + flag;
    }
  }
}
