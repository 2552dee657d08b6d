package io.secio.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.secio.SecioConfig;
import io.secio.protocol.SecioException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SecioFrameDecoderTest {
  private static final int MAX = 1024;

  private static ByteBuf frame(byte[] payload) {
    ByteBuf buf = Unpooled.buffer(4 + payload.length);
    return buf.writeInt(payload.length).writeBytes(payload);
  }

  private static byte[] readPayload(EmbeddedChannel ch) {
    ByteBuf out = ch.readInbound();
    if (out == null) {
      return null;
    }
    try {
      byte[] b = new byte[out.readableBytes()];
      out.readBytes(b);
      return b;
    } finally {
      out.release();
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 42, 20240601})
  void anyRechunkingYieldsTheSameFrames(long seed) {
    Random random = new Random(seed);
    List<byte[]> payloads = new ArrayList<>();
    ByteBuf stream = Unpooled.buffer();
    for (int i = 0; i < 40; i++) {
      byte[] p = new byte[i % 7 == 0 ? 0 : random.nextInt(MAX + 1)];
      if (i == 5) {
        p = new byte[MAX];
      }
      random.nextBytes(p);
      payloads.add(p);
      stream.writeInt(p.length).writeBytes(p);
    }
    EmbeddedChannel ch = new EmbeddedChannel(new SecioFrameDecoder(MAX));
    while (stream.isReadable()) {
      int n = Math.min(stream.readableBytes(), 1 + random.nextInt(random.nextBoolean() ? 5 : 3000));
      ch.writeInbound(stream.readRetainedSlice(n));
    }
    stream.release();
    for (int i = 0; i < payloads.size(); i++) {
      assertArrayEquals(payloads.get(i), readPayload(ch), "frame " + i + " (seed " + seed + ")");
    }
    assertNull(readPayload(ch));
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void incompleteFrameReturnsWithoutMovingTheReaderIndex() {
    SecioFrameDecoder decoder = new SecioFrameDecoder(MAX);
    EmbeddedChannel ch = new EmbeddedChannel(decoder);
    List<Object> out = new ArrayList<>();
    ByteBuf partial = Unpooled.buffer().writeInt(10).writeBytes(new byte[9]);
    try {
      decoder.decode(ch.pipeline().context(decoder), partial, out);
      assertEquals(0, partial.readerIndex());
      assertTrue(out.isEmpty());
      ByteBuf header = partial.slice(0, 3);
      decoder.decode(ch.pipeline().context(decoder), header, out);
      assertEquals(0, header.readerIndex());
      assertTrue(out.isEmpty());
    } finally {
      partial.release();
    }
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void frameOfExactlyTheLimitIsAccepted() {
    EmbeddedChannel ch = new EmbeddedChannel(new SecioFrameDecoder(MAX));
    byte[] payload = new byte[MAX];
    new Random(7).nextBytes(payload);
    ch.writeInbound(frame(payload));
    assertArrayEquals(payload, readPayload(ch));
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void lengthOverTheLimitFailsFromTheHeaderAlone() {
    EmbeddedChannel ch = new EmbeddedChannel(new SecioFrameDecoder(MAX));
    ByteBuf header = Unpooled.buffer(4).writeInt(MAX + 1);
    DecoderException e = assertThrows(DecoderException.class, () -> ch.writeInbound(header));
    assertEquals(0, header.refCnt(), "the header was buffered");
    SecioException cause = assertInstanceOfSecio(e);
    assertEquals(SecioException.Reason.FRAME_TOO_LONG, cause.reason());
    // The stream has lost its framing: nothing after the bad header is decoded, and no second error.
    ByteBuf later = frame(new byte[] {1, 2, 3});
    assertFalse(ch.writeInbound(later));
    assertEquals(0, later.refCnt());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void hugeDeclaredLengthIsRejectedBeforeItsBodyIsBuffered() {
    EmbeddedChannel ch = new EmbeddedChannel(new SecioFrameDecoder(MAX));
    // 0xFFFFFFFF must read as an unsigned 4 GiB, not as -1.
    ByteBuf data = Unpooled.buffer().writeInt(0xFFFFFFFF).writeBytes(new byte[64 * 1024]);
    DecoderException e = assertThrows(DecoderException.class, () -> ch.writeInbound(data));
    assertEquals(SecioException.Reason.FRAME_TOO_LONG, assertInstanceOfSecio(e).reason());
    assertEquals(0, data.refCnt());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void declaredLengthIsNeverAllocatedUpFront() {
    int max = SecioConfig.DEFAULT_MAX_FRAME_LENGTH_IN_BYTES;
    UnpooledByteBufAllocator counting = new UnpooledByteBufAllocator(false);
    EmbeddedChannel ch = new EmbeddedChannel(new SecioFrameDecoder(max));
    ch.config().setAllocator(counting);
    // Inputs come from the counting allocator too: the cumulation may grow the first one in place.
    ch.writeInbound(counting.heapBuffer(4).writeInt(max));
    for (int i = 0; i < 10; i++) {
      ch.writeInbound(counting.heapBuffer(1000).writeZero(1000));
    }
    assertNull(ch.readInbound());
    long held = counting.metric().usedHeapMemory() + counting.metric().usedDirectMemory();
    assertTrue(held > 0 && held < 64 * 1024, "cumulation holds " + held + " bytes for 10 KB received");
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void payloadsAreReleasableSlices() {
    EmbeddedChannel ch = new EmbeddedChannel(new SecioFrameDecoder(MAX));
    ByteBuf two = ByteBufAllocator.DEFAULT.buffer().writeInt(2).writeShort(0x0102).writeInt(1).writeByte(3);
    ch.writeInbound(two);
    assertArrayEquals(new byte[] {1, 2}, readPayload(ch));
    assertArrayEquals(new byte[] {3}, readPayload(ch));
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void aNegativeLimitOfEitherKindIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new SecioFrameDecoder(-1, 10));
    assertThrows(IllegalArgumentException.class, () -> new SecioFrameDecoder(10, -1));
  }

  @Test
  void theHandshakeLimitAppliesUntilTheHandshakeIsComplete() {
    EmbeddedChannel handshaking = new EmbeddedChannel(new SecioFrameDecoder(MAX, 10));
    handshaking.writeInbound(frame(new byte[10]));
    assertArrayEquals(new byte[10], readPayload(handshaking));
    DecoderException e = assertThrows(DecoderException.class,
        () -> handshaking.writeInbound(frame(new byte[11])));
    assertEquals(SecioException.Reason.HANDSHAKE_MESSAGE_TOO_LONG, assertInstanceOfSecio(e).reason());
    assertFalse(handshaking.finishAndReleaseAll());

    SecioFrameDecoder decoder = new SecioFrameDecoder(MAX, 10);
    EmbeddedChannel established = new EmbeddedChannel(decoder);
    decoder.handshakeComplete();
    established.writeInbound(frame(new byte[MAX]));
    assertArrayEquals(new byte[MAX], readPayload(established));
    e = assertThrows(DecoderException.class, () -> established.writeInbound(frame(new byte[MAX + 1])));
    assertEquals(SecioException.Reason.FRAME_TOO_LONG, assertInstanceOfSecio(e).reason());
    assertFalse(established.finishAndReleaseAll());
  }

  @Test
  void aHandshakeLimitAboveTheFrameLimitIsCutToIt() {
    EmbeddedChannel ch = new EmbeddedChannel(new SecioFrameDecoder(10, MAX));
    DecoderException e = assertThrows(DecoderException.class, () -> ch.writeInbound(frame(new byte[11])));
    assertEquals(SecioException.Reason.HANDSHAKE_MESSAGE_TOO_LONG, assertInstanceOfSecio(e).reason());
    assertFalse(ch.finishAndReleaseAll());
  }

  /**
   * The frame that straddles two reads is copied whole behind its waiting part; the frames after it
   * are used where they lie, in the second read's own memory, and each body is one piece.
   */
  @Test
  void onlyTheFrameThatStraddlesTwoReadsIsCopied() {
    byte[] a = random(10, 21);
    byte[] b = random(20, 22);
    byte[] c = random(5, 23);
    ByteBuf stream = Unpooled.buffer();
    for (byte[] payload : new byte[][] {a, b, c}) {
      stream.writeInt(payload.length).writeBytes(payload);
    }
    byte[] wire = ByteBufUtil.getBytes(stream);
    stream.release();
    int cut = 4 + 3;
    byte[] second = Arrays.copyOfRange(wire, cut, wire.length);
    EmbeddedChannel ch = new EmbeddedChannel(new SecioFrameDecoder(MAX));
    ch.writeInbound(Unpooled.buffer(64).writeBytes(wire, 0, cut));
    assertNull(ch.readInbound());
    ch.writeInbound(Unpooled.wrappedBuffer(second));
    List<ByteBuf> bodies = new ArrayList<>();
    for (ByteBuf body; (body = ch.readInbound()) != null; ) {
      bodies.add(body);
    }
    try {
      assertEquals(3, bodies.size());
      byte[][] payloads = {a, b, c};
      for (int i = 0; i < 3; i++) {
        ByteBuf body = bodies.get(i);
        assertArrayEquals(payloads[i], ByteBufUtil.getBytes(body), "frame " + i);
        assertEquals(1, body.nioBufferCount(), "frame " + i + " lies in one piece of memory");
        assertTrue(body.hasArray(), "frame " + i + " is a slice of a composite buffer");
      }
      assertSame(second, bodies.get(1).array(), "the frame after the straddling one was copied");
      assertSame(second, bodies.get(2).array(), "the last frame of the read was copied");
    } finally {
      bodies.forEach(ByteBuf::release);
    }
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void aBodyAcrossTwoPartsOfACompositeBufferComesOutWhole() {
    byte[] payload = random(30, 24);
    ByteBuf whole = frame(payload);
    ByteBuf parts = Unpooled.wrappedBuffer(whole.retainedSlice(0, 14), whole.retainedSlice(14, 20));
    whole.release();
    SecioFrameDecoder decoder = new SecioFrameDecoder(MAX);
    EmbeddedChannel ch = new EmbeddedChannel(decoder);
    List<Object> out = new ArrayList<>();
    try {
      decoder.decode(ch.pipeline().context(decoder), parts, out);
      assertEquals(1, out.size());
      assertArrayEquals(payload, ByteBufUtil.getBytes((ByteBuf) out.get(0)));
      assertFalse(parts.isReadable());
    } finally {
      out.forEach(o -> ((ByteBuf) o).release());
      parts.release();
    }
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void registrationIsPassedOn() throws Exception {
    List<String> seen = new ArrayList<>();
    EmbeddedChannel ch = new EmbeddedChannel(false, false, new SecioFrameDecoder(MAX),
        new ChannelInboundHandlerAdapter() {
          @Override
          public void channelRegistered(ChannelHandlerContext ctx) {
            seen.add("registered");
          }
        });
    assertTrue(seen.isEmpty());
    ch.register();
    assertEquals(List.of("registered"), seen);
    assertFalse(ch.finishAndReleaseAll());
  }

  private static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static SecioException assertInstanceOfSecio(Throwable t) {
    SecioException s = SecioExceptions.find(t);
    assertTrue(s != null, "no SecioException in " + t);
    return s;
  }
}
