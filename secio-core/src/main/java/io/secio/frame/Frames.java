package io.secio.frame;

import io.secio.protocol.SecioException.Reason;
import io.secio.protocol.SecioException;
import java.nio.ByteBuffer;

/**
 * The framing of every secio message (docs/PROTOCOL.md section 2), in one place: the header's size,
 * how it is read and written, and the length check. Every reader and writer of frames, with Netty or
 * without, goes through here.
 *
 * <pre>
 * +--------------------------+---------------------------------------+
 * | length (u32, big-endian) | payload (length bytes)                |
 * +--------------------------+---------------------------------------+
 *   handshake: Propose / Exchange (protobuf, or tentacle's molecule tables)
 *   after it:  ciphertext || HMAC   (v0.1)   or   ciphertext || tag (v0.2)
 * </pre>
 *
 * The length counts the payload only and is at most the configured maximum (default 8 MiB,
 * inclusive; during the handshake the smaller handshake-message limit); a longer declared length is
 * rejected from the header alone, before any of the payload is buffered.
 */
public final class Frames {
  /** Size of the length prefix. */
  public static final int HEADER_SIZE_IN_BYTES = 4;

  private Frames() {}

  /**
   * The payload length declared by the header that starts at {@code header}'s position (which does
   * not move); it needs {@value #HEADER_SIZE_IN_BYTES} bytes remaining.
   */
  public static long declaredLength(ByteBuffer header) {
    return Integer.toUnsignedLong(header.getInt(header.position()));
  }

  /**
   * The payload length a header declares, checked against {@code maxFrameLength}.
   *
   * @throws SecioException {@link Reason#FRAME_TOO_LONG} if it is over the limit
   */
  public static int checkedLength(long declared, int maxFrameLength) throws SecioException {
    return checkedLength(declared, maxFrameLength, Reason.FRAME_TOO_LONG);
  }

  /**
   * The payload length a header declares, checked against {@code limit}.
   *
   * @throws SecioException with {@code overLimit} as its reason if it is over the limit
   */
  public static int checkedLength(long declared, int limit, Reason overLimit) throws SecioException {
    if (declared > limit) {
      throw new SecioException(overLimit, "declared " + declared + " bytes, limit " + limit);
    }
    return (int) declared;
  }

  /** Writes the header of a frame whose payload is {@code payloadLength} bytes at {@code out}'s position. */
  public static void putHeader(ByteBuffer out, int payloadLength) {
    out.putInt(payloadLength);
  }

  /** {@code payload} with its 4-byte length prefix. */
  public static byte[] withHeader(byte[] payload) {
    ByteBuffer frame = ByteBuffer.allocate(HEADER_SIZE_IN_BYTES + payload.length);
    putHeader(frame, payload.length);
    return frame.put(payload).array();
  }
}
