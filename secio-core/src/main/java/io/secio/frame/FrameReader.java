package io.secio.frame;

import io.secio.protocol.SecioException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Cuts a byte stream into frame payloads, for callers without Netty (Netty users get the same rules
 * from the secio-netty decoder). A header over the limit fails at once; memory grows only with the
 * bytes that actually arrive, never with the declared length. Not thread-safe.
 */
public final class FrameReader {
  private static final int INITIAL_BODY_CAPACITY_IN_BYTES = 256;

  private final int maxFrameLength;
  private final byte[] header = new byte[Frames.HEADER_SIZE_IN_BYTES];
  private int headerFilled;
  private int bodyLength = -1;
  private byte[] body = new byte[0];
  private int bodyFilled;

  /**
   * A reader that refuses any frame whose header declares more than {@code maxFrameLength} bytes
   * (inclusive), as {@link io.secio.SecioConfig#maxFrameLength()} gives it.
   */
  public FrameReader(int maxFrameLength) {
    this.maxFrameLength = maxFrameLength;
  }

  /**
   * Consumes all remaining bytes of {@code bytes} and returns the payloads they complete, in order.
   *
   * @throws SecioException {@link SecioException.Reason#FRAME_TOO_LONG} on a header over the limit
   */
  public List<byte[]> read(ByteBuffer bytes) throws SecioException {
    List<byte[]> frames = new ArrayList<>();
    while (bytes.hasRemaining()) {
      if (bodyLength < 0) {
        int n = Math.min(bytes.remaining(), header.length - headerFilled);
        bytes.get(header, headerFilled, n);
        headerFilled += n;
        if (headerFilled < header.length) {
          break;
        }
        bodyLength = Frames.checkedLength(Frames.declaredLength(ByteBuffer.wrap(header)), maxFrameLength);
        body = new byte[Math.min(bodyLength, INITIAL_BODY_CAPACITY_IN_BYTES)];
        bodyFilled = 0;
      }
      int n = Math.min(bytes.remaining(), bodyLength - bodyFilled);
      if (bodyFilled + n > body.length) {
        body = Arrays.copyOf(body, Math.min(bodyLength, Math.max(body.length * 2, bodyFilled + n)));
      }
      bytes.get(body, bodyFilled, n);
      bodyFilled += n;
      if (bodyFilled == bodyLength) {
        frames.add(body);
        body = new byte[0];
        bodyLength = -1;
        headerFilled = 0;
      }
    }
    return frames;
  }

  /** Bytes held for an incomplete frame (for tests of the no-up-front-allocation rule). */
  public int bufferedCapacity() {
    return body.length;
  }
}
