package io.secio.frame;

import io.secio.SecioException;
import io.secio.SecioException.Reason;
import java.nio.ByteBuffer;

/**
 * The framing of every secio message (spec section 1):
 *
 * <pre>
 * +--------------------------+---------------------------------------+
 * | length (u32, big-endian) | payload (length bytes)                |
 * +--------------------------+---------------------------------------+
 *   handshake: Propose / Exchange protobuf
 *   after it:  ciphertext || HMAC   (v0.1)   or   ciphertext || tag (v0.2)
 * </pre>
 *
 * The length counts the payload only and is at most the configured maximum (default 8 MiB,
 * inclusive); a longer declared length is rejected from the header alone.
 */
public final class Frames {
  /** Size of the length prefix. */
  public static final int HEADER_SIZE_IN_BYTES = 4;

  private Frames() {}

  /**
   * The payload length a header declares, checked against {@code maxFrameLength}.
   *
   * @throws SecioException {@link Reason#FRAME_TOO_LONG} if it is over the limit
   */
  public static int checkedLength(long declared, int maxFrameLength) throws SecioException {
    if (declared > maxFrameLength) {
      throw new SecioException(
          Reason.FRAME_TOO_LONG, declared + " bytes declared, limit " + maxFrameLength);
    }
    return (int) declared;
  }

  /** {@code payload} with its 4-byte length prefix. */
  public static byte[] withHeader(byte[] payload) {
    return ByteBuffer.allocate(HEADER_SIZE_IN_BYTES + payload.length)
        .putInt(payload.length)
        .put(payload)
        .array();
  }
}
