package io.secio.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How the frame decoder gathers reads ({@link FrameCumulator}): whatever the cuts between reads, every
 * frame comes out whole, in one piece of memory (what a provider needs to read it without another copy), and with
 * its own bytes even while earlier frames are still held (an echo holds them until it writes them
 * back), as direct reads from a socket would arrive.
 */
class FrameCumulatorTest {
  private static final int MAX = 70_000;

  @ParameterizedTest(name = "seed {0}, holding frames {1}")
  @ValueSource(longs = {1, 2, 3, 16, 2026})
  void everyFrameComesOutWholeInOnePieceWhereverTheReadsEnd(long seed) {
    for (boolean hold : new boolean[] {false, true}) {
      Random random = new Random(seed);
      List<byte[]> payloads = new ArrayList<>();
      ByteBuf stream = Unpooled.buffer();
      for (int i = 0; i < 30; i++) {
        // Mostly large frames, as a stream makes, with short and empty ones between.
        int length = switch (i % 5) {
          case 0 -> 0;
          case 1 -> random.nextInt(8);
          default -> MAX - random.nextInt(MAX / 2);
        };
        byte[] payload = new byte[length];
        random.nextBytes(payload);
        payloads.add(payload);
        stream.writeInt(length).writeBytes(payload);
      }
      EmbeddedChannel channel = new EmbeddedChannel(new SecioFrameDecoder(MAX));
      List<ByteBuf> held = new ArrayList<>();
      int next = 0;
      while (stream.isReadable()) {
        // Reads from 1 byte to 3 frames, in direct buffers as a socket's.
        int cut = Math.min(stream.readableBytes(), 1 + random.nextInt(3 * MAX));
        ByteBuf read = channel.alloc().directBuffer(cut);
        stream.readBytes(read, cut);
        channel.writeInbound(read);
        for (ByteBuf body = channel.readInbound(); body != null; body = channel.readInbound()) {
          assertEquals(1, body.nioBufferCount(), "frame " + next + " lies in one piece of memory");
          if (hold) {
            held.add(body);
          } else {
            assertArrayEquals(payloads.get(next), ByteBufUtil.getBytes(body), "frame " + next);
            body.release();
          }
          next++;
        }
      }
      for (int i = 0; i < held.size(); i++) {
        assertArrayEquals(payloads.get(i), ByteBufUtil.getBytes(held.get(i)), "held frame " + i);
        held.get(i).release();
      }
      assertEquals(payloads.size(), next, "seed " + seed + ", holding " + hold);
      assertNull(channel.readInbound());
      stream.release();
      assertFalse(channel.finishAndReleaseAll());
    }
  }
}
