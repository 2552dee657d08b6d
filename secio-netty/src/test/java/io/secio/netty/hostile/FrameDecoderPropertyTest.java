package io.secio.netty.hostile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.secio.netty.FrameDecoders;
import io.secio.protocol.SecioException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link io.secio.netty.SecioFrameDecoder} against a reference model, on random streams cut into random chunks. A
 * stream mixes honest frames (empty, at the limit, in between), hand-made headers (0, the limit, one
 * over, 2^31, 2^32 - 1, anything) and random bytes. The model reads it as docs/PROTOCOL.md says: frames until
 * a header over the limit (then FRAME_TOO_LONG, once, and nothing after) or until the bytes run out
 * (an incomplete frame is never emitted). Every chunking of a stream must give the model's answer,
 * and every buffer must be released. Jazzer-free: seeded; each invocation runs {@value #STREAMS}
 * streams and names the failing one's seed.
 */
class FrameDecoderPropertyTest {
  private static final int[] LIMITS = {0, 1, 17, 1024, 65536};
  private static final int STREAMS = 50;

  static LongStream seeds() {
    return LongStream.range(0, 12);
  }

  /** What docs/PROTOCOL.md says a decoder makes of {@code stream}. */
  record Expected(List<byte[]> frames, boolean tooLong) {}

  static Expected model(byte[] stream, int limit) {
    List<byte[]> frames = new ArrayList<>();
    ByteBuffer in = ByteBuffer.wrap(stream);
    while (in.remaining() >= 4) {
      long length = Integer.toUnsignedLong(in.getInt(in.position()));
      if (length > limit) {
        return new Expected(frames, true);
      }
      if (in.remaining() - 4 < length) {
        break;
      }
      in.position(in.position() + 4);
      byte[] frame = new byte[(int) length];
      in.get(frame);
      frames.add(frame);
    }
    return new Expected(frames, false);
  }

  static byte[] randomStream(Random r, int limit) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int segments = 1 + r.nextInt(30);
    for (int i = 0; i < segments; i++) {
      int kind = r.nextInt(20);
      if (kind < 15) {
        int n = r.nextInt(4) == 0 ? limit : r.nextInt(Math.min(limit, 2048) + 1);
        byte[] body = new byte[n];
        r.nextBytes(body);
        out.writeBytes(RawPeer.frame(body));
      } else if (kind < 19) {
        long[] headers = {0, limit, limit + 1L, 1L << 31, 0xFFFFFFFFL, r.nextInt() & 0xFFFFFFFFL};
        out.writeBytes(Crafted.header(headers[r.nextInt(headers.length)]));
      } else {
        byte[] noise = new byte[1 + r.nextInt(16)];
        r.nextBytes(noise);
        out.writeBytes(noise);
      }
    }
    return out.toByteArray();
  }

  @ParameterizedTest(name = "seeds {0}xx")
  @MethodSource("seeds")
  void anyChunkingOfAnyStreamGivesTheModelsFrames(long batch) {
    for (int i = 0; i < STREAMS; i++) {
      checkOneStream(batch * 100 + i);
    }
  }

  private static void checkOneStream(long seed) {
    Random r = new Random(seed);
    int limit = LIMITS[r.nextInt(LIMITS.length)];
    byte[] stream = randomStream(r, limit);
    Expected expected = model(stream, limit);

    // An allocator without leak tracking (paranoid tracking of every byte fed one at a time would take
    // minutes) whose own count of live bytes is the leak check: zero at the end.
    UnpooledByteBufAllocator allocator = new UnpooledByteBufAllocator(false, true);
    EmbeddedChannel ch = new EmbeddedChannel();
    ch.config().setAllocator(allocator);
    ch.pipeline().addLast(FrameDecoders.of(limit));
    List<ByteBuf> fed = new ArrayList<>();
    int tooLong = 0;
    // Tiny chunks (1 to 8 bytes) for streams short enough to feed that way in milliseconds.
    int maxChunk = 1 + r.nextInt(r.nextBoolean() && stream.length < 16 * 1024 ? 8 : 4096);
    for (int at = 0; at < stream.length; ) {
      int n = Math.min(stream.length - at, 1 + r.nextInt(maxChunk));
      // Not from an allocator, so not leak-tracked (cheap): its release is checked by hand below.
      ByteBuf chunk = Unpooled.wrappedBuffer(Arrays.copyOfRange(stream, at, at + n));
      fed.add(chunk);
      at += n;
      try {
        ch.writeInbound(chunk);
      } catch (DecoderException e) {
        SecioException cause = secioCause(e);
        assertNotNull(cause, "seed " + seed + ": " + e);
        assertEquals(SecioException.Reason.FRAME_TOO_LONG, cause.reason(), "seed " + seed);
        tooLong++;
      }
    }
    List<byte[]> got = new ArrayList<>();
    for (ByteBuf out; (out = ch.readInbound()) != null; ) {
      byte[] b = new byte[out.readableBytes()];
      out.readBytes(b);
      out.release();
      got.add(b);
    }
    assertEquals(expected.tooLong() ? 1 : 0, tooLong, "seed " + seed + ": FRAME_TOO_LONG count");
    assertEquals(expected.frames().size(), got.size(), "seed " + seed + ": frame count");
    for (int i = 0; i < got.size(); i++) {
      assertArrayEquals(expected.frames().get(i), got.get(i), "seed " + seed + ": frame " + i);
    }
    assertFalse(ch.finishAndReleaseAll(), "seed " + seed + ": output left behind");
    assertNull(ch.readInbound());
    for (ByteBuf chunk : fed) {
      assertEquals(0, chunk.refCnt(), "seed " + seed + ": an input chunk was not released");
    }
    assertEquals(0, allocator.metric().usedHeapMemory() + allocator.metric().usedDirectMemory(),
        "seed " + seed + ": the decoder kept a buffer");
  }

  private static SecioException secioCause(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof SecioException) {
        return (SecioException) c;
      }
    }
    return null;
  }
}
