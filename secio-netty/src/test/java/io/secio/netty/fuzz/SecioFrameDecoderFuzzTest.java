package io.secio.netty.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.secio.netty.FrameDecoders;
import io.secio.protocol.SecioException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link io.secio.netty.SecioFrameDecoder} on any stream cut into any chunks (docs/PROTOCOL.md section 2), against a plain model:
 * it emits exactly the model's frames, fails with {@code FRAME_TOO_LONG} exactly when a header over the
 * limit is complete, emits nothing after that, and leaks no buffer.
 */
class SecioFrameDecoderFuzzTest {
  private static final int MAX_LIMIT = 1100;
  private static final int MAX_CHUNK = 300;

  @FuzzTest
  void anyStreamInAnyChunks(FuzzedDataProvider data) {
    int maxFrameLength = data.consumeInt(0, MAX_LIMIT);
    EmbeddedChannel channel = new EmbeddedChannel(FrameDecoders.of(maxFrameLength));
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    List<byte[]> emitted = new ArrayList<>();
    boolean failed = false;
    try {
      while (data.remainingBytes() > 0 && !failed) {
        byte[] chunk = data.consumeBytes(data.consumeInt(0, MAX_CHUNK));
        stream.writeBytes(chunk);
        try {
          channel.writeInbound(Unpooled.wrappedBuffer(chunk));
        } catch (RuntimeException e) {
          SecioException secio = find(e);
          assertNotNull(secio, "only a SecioException may escape: " + e);
          assertEquals(SecioException.Reason.FRAME_TOO_LONG, secio.reason());
          failed = true;
        }
        for (ByteBuf frame; (frame = channel.readInbound()) != null; ) {
          emitted.add(ByteBufUtil.getBytes(frame));
          frame.release();
        }
      }
      Model model = Model.of(stream.toByteArray(), maxFrameLength);
      assertEquals(model.tooLong, failed, "FRAME_TOO_LONG exactly when a header over the limit is complete");
      assertEquals(model.frames.size(), emitted.size(), "frames");
      for (int i = 0; i < emitted.size(); i++) {
        assertArrayEquals(model.frames.get(i), emitted.get(i), "frame " + i);
      }
      if (failed) {
        // Nothing after the bad header is decoded.
        channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {0, 0, 0, 0}));
        assertNull(channel.readInbound());
      }
    } finally {
      channel.finishAndReleaseAll();
    }
  }

  private static SecioException find(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof SecioException) {
        return (SecioException) c;
      }
    }
    return null;
  }

  /** The framing read byte by byte: frames until the stream ends or a header is over the limit. */
  private static final class Model {
    final List<byte[]> frames = new ArrayList<>();
    boolean tooLong;

    static Model of(byte[] stream, int maxFrameLength) {
      Model m = new Model();
      ByteBuffer b = ByteBuffer.wrap(stream);
      while (b.remaining() >= 4) {
        long length = Integer.toUnsignedLong(b.getInt(b.position()));
        if (length > maxFrameLength) {
          m.tooLong = true;
          return m;
        }
        if (b.remaining() - 4 < length) {
          return m;
        }
        b.position(b.position() + 4);
        byte[] frame = new byte[(int) length];
        b.get(frame);
        m.frames.add(frame);
      }
      assertTrue(b.remaining() < 4);
      return m;
    }
  }
}
