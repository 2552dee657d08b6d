package io.secio.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.secio.frame.FrameReader;
import io.secio.frame.Frames;
import io.secio.protocol.SecioException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link FrameReader} on any stream cut into any chunks (docs/PROTOCOL.md section 2), checked against a plain
 * model of the framing: the reader returns exactly the model's frames, fails with {@code
 * FRAME_TOO_LONG} exactly when a header over the limit is complete, and never holds more memory than
 * the bytes that arrived justify.
 */
class FrameReaderFuzzTest {
  /** Small, so that the fuzzer meets the limit and the buffer growth steps (256, 512, 1024). */
  static final int MAX_LIMIT = 1100;
  static final int MAX_CHUNK = 300;
  /** The reader's first body buffer; it then doubles, so it may hold up to twice what arrived. */
  static final int INITIAL_CAPACITY = 256;

  @FuzzTest
  void cutsAnyStreamIntoTheModelsFrames(FuzzedDataProvider data) {
    int maxFrameLength = data.consumeInt(0, MAX_LIMIT);
    FrameReader reader = new FrameReader(maxFrameLength);
    Model model = new Model(maxFrameLength);
    List<byte[]> frames = new ArrayList<>();
    while (data.remainingBytes() > 0) {
      boolean direct = data.consumeBoolean();
      byte[] chunk = data.consumeBytes(data.consumeInt(0, MAX_CHUNK));
      boolean tooLong = model.feed(chunk);
      ByteBuffer buffer = direct ? ByteBuffer.allocateDirect(chunk.length) : ByteBuffer.allocate(chunk.length);
      buffer.put(chunk).flip();
      List<byte[]> read;
      try {
        read = reader.read(buffer);
      } catch (SecioException e) {
        assertEquals(SecioException.Reason.FRAME_TOO_LONG, e.reason(), "reason");
        assertTrue(tooLong, "FRAME_TOO_LONG although no header over " + maxFrameLength + " is complete");
        return;
      }
      if (tooLong) {
        fail("a header declaring " + model.declared + " bytes (limit " + maxFrameLength + ") was accepted");
      }
      assertEquals(0, buffer.remaining(), "read() must consume the whole chunk");
      for (byte[] frame : read) {
        assertTrue(frame.length <= maxFrameLength, "frame of " + frame.length + " over the limit");
      }
      frames.addAll(read);
      assertEquals(model.frames.size(), frames.size(), "frames completed so far");
      int capacity = reader.bufferedCapacity();
      if (model.declared < 0) {
        assertEquals(0, capacity, "buffer held between frames");
      } else {
        long bound = Math.min(model.declared, Math.max(INITIAL_CAPACITY, 2L * model.received));
        assertTrue(capacity <= bound, "buffer of " + capacity + " bytes for a frame declaring "
            + model.declared + " of which " + model.received + " arrived");
      }
    }
    // Checked at the end too: a frame array reused by the reader would show here.
    ByteArrayOutputStream again = new ByteArrayOutputStream();
    for (int i = 0; i < frames.size(); i++) {
      assertArrayEquals(model.frames.get(i), frames.get(i), "frame " + i);
      again.writeBytes(Frames.withHeader(frames.get(i)));
    }
    byte[] consumed = model.completePrefix();
    assertArrayEquals(consumed, again.toByteArray(), "frames with headers = the consumed prefix");
  }

  /** The framing, byte by byte. */
  private static final class Model {
    final int maxFrameLength;
    final List<byte[]> frames = new ArrayList<>();
    final ByteArrayOutputStream stream = new ByteArrayOutputStream();
    final ByteArrayOutputStream current = new ByteArrayOutputStream();
    int completeLength;
    /** Declared length of the frame being read, -1 while its header is incomplete. */
    long declared = -1;
    int received;

    Model(int maxFrameLength) {
      this.maxFrameLength = maxFrameLength;
    }

    /** Returns whether a header over the limit became complete in this chunk. */
    boolean feed(byte[] chunk) {
      for (byte b : chunk) {
        stream.write(b);
        current.write(b);
        if (declared < 0) {
          if (current.size() == Frames.HEADER_SIZE_IN_BYTES) {
            declared = Integer.toUnsignedLong(ByteBuffer.wrap(current.toByteArray()).getInt());
            received = 0;
            if (declared > maxFrameLength) {
              return true;
            }
          }
        } else {
          received++;
        }
        if (declared >= 0 && received == declared) {
          byte[] all = current.toByteArray();
          byte[] payload = new byte[all.length - Frames.HEADER_SIZE_IN_BYTES];
          System.arraycopy(all, Frames.HEADER_SIZE_IN_BYTES, payload, 0, payload.length);
          frames.add(payload);
          completeLength += all.length;
          current.reset();
          declared = -1;
          received = 0;
        }
      }
      return false;
    }

    byte[] completePrefix() {
      byte[] all = stream.toByteArray();
      byte[] prefix = new byte[completeLength];
      System.arraycopy(all, 0, prefix, 0, completeLength);
      return prefix;
    }
  }
}
