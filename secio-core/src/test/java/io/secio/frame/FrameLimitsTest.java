package io.secio.frame;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.secio.protocol.SecioException.Reason;
import io.secio.protocol.SecioException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The frame length limit is inclusive, and the reader takes a frame in one read or many. */
class FrameLimitsTest {
  private static final int LIMIT = 1000;

  @Test
  void aLengthExactlyAtTheLimitPassesAndOneMoreFails() throws SecioException {
    assertEquals(LIMIT, Frames.checkedLength(LIMIT, LIMIT));
    assertEquals(Reason.FRAME_TOO_LONG,
        assertThrows(SecioException.class, () -> Frames.checkedLength(LIMIT + 1, LIMIT)).reason());
    assertEquals(Reason.FRAME_TOO_LONG,
        assertThrows(SecioException.class, () -> Frames.checkedLength(0xffff_ffffL, LIMIT)).reason());
  }

  @Test
  void withHeaderPrefixesTheBigEndianLength() {
    assertArrayEquals(new byte[] {0, 0, 0, 2, 7, 7}, Frames.withHeader(new byte[] {7, 7}));
  }

  @Test
  void aFrameExactlyAtTheLimitIsRead() throws SecioException {
    byte[] payload = payload(LIMIT);
    List<byte[]> frames = new FrameReader(LIMIT).read(ByteBuffer.wrap(Frames.withHeader(payload)));
    assertEquals(1, frames.size());
    assertArrayEquals(payload, frames.get(0));
  }

  @Test
  void oneReadMayBringALargeFrameAndTheNextOneWhole() throws SecioException {
    byte[] first = payload(LIMIT);
    byte[] second = payload(300);
    ByteBuffer stream = ByteBuffer.allocate(8 + first.length + second.length)
        .put(Frames.withHeader(first))
        .put(Frames.withHeader(second))
        .flip();
    FrameReader reader = new FrameReader(LIMIT);
    List<byte[]> frames = reader.read(stream);
    assertEquals(2, frames.size());
    assertArrayEquals(first, frames.get(0));
    assertArrayEquals(second, frames.get(1));
    assertEquals(0, reader.bufferedCapacity());
  }

  @Test
  void aBodyArrivingByteByByteGrowsItsBufferByDoubling() throws SecioException {
    // Doubling keeps the copying linear in the frame size; growing to fit each read would be quadratic.
    FrameReader reader = new FrameReader(LIMIT);
    reader.read(ByteBuffer.wrap(new byte[] {0, 0, 0x03, (byte) 0xe8}));
    assertEquals(256, reader.bufferedCapacity());
    for (int i = 0; i < 256; i++) {
      assertEquals(List.of(), reader.read(ByteBuffer.wrap(new byte[] {1})));
    }
    // Exactly full: it grows only when a byte arrives that does not fit.
    assertEquals(256, reader.bufferedCapacity());
    assertEquals(List.of(), reader.read(ByteBuffer.wrap(new byte[] {1})));
    assertEquals(512, reader.bufferedCapacity());
  }

  private static byte[] payload(int length) {
    byte[] b = new byte[length];
    new Random(length).nextBytes(b);
    return b;
  }
}
