package io.secio.ckb.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.secio.ckb.CkbException;
import io.secio.ckb.testing.MoleculeExamples;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * CKB's compress codec ({@code docs/CKB.md} §4) on Netty's snappy: the vectors' frames, the reserved
 * bits, each refusal (under 2 bytes, over 8 MiB announced, bad snappy), the writer's threshold and
 * "only when smaller", and any payload round-tripping; the stream handler's one failure path.
 */
class CompressCodecTest {
  private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;
  private static final HexFormat HEX = HexFormat.of();

  private static byte[] decode(byte[] message) throws CkbException {
    ByteBuf in = Unpooled.wrappedBuffer(message);
    try {
      ByteBuf out = CompressCodec.decode(ALLOC, in);
      try {
        return ByteBufUtil.getBytes(out);
      } finally {
        out.release();
      }
    } finally {
      in.release();
    }
  }

  private static byte[] encode(byte[] payload, boolean compress) {
    ByteBuf out = CompressCodec.encode(ALLOC, Unpooled.copiedBuffer(payload), compress);
    try {
      return ByteBufUtil.getBytes(out);
    } finally {
      out.release();
    }
  }

  private static void assertBadFrame(String hex) {
    CkbException e = assertThrows(CkbException.class, () -> decode(HEX.parseHex(hex)));
    assertEquals(CkbException.Reason.BAD_FRAME, e.reason(), e.getMessage());
  }

  @Test
  void theVectorsSnappyFrameDecodes() throws CkbException {
    byte[] frame = MoleculeExamples.compressedFrame("frame_hex");
    byte[] message = Arrays.copyOfRange(frame, 4, frame.length);
    assertEquals(message.length, (int) Long.parseLong(HEX.formatHex(frame, 0, 4), 16), "the u32 prefix counts the flag");
    assertArrayEquals(MoleculeExamples.compressedFrame("decompressed_payload_hex"), decode(message));
  }

  @Test
  void theVectorsRawFrameBothWays() throws CkbException {
    byte[] frame = MoleculeExamples.bytes("frame_compress_codec_in_ibd");
    byte[] message = Arrays.copyOfRange(frame, 4, frame.length);
    assertArrayEquals(MoleculeExamples.bytes("in_ibd"), decode(message));
    assertArrayEquals(message, encode(MoleculeExamples.bytes("in_ibd"), true));
  }

  @Test
  void reservedFlagBitsAreIgnored() throws CkbException {
    assertArrayEquals(new byte[] {1, 2}, decode(HEX.parseHex("7f0102")));
    assertArrayEquals(new byte[] {1, 2}, decode(HEX.parseHex("ff02040102")), "0xff: snappy");
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "", "00", "80",                      // under 2 bytes
    "8081808004",                        // announces 8 MiB + 1: refused before decompressing
    "80ffffffffffffffffff7f",            // a length over 64 bits
    "80ffffffffffffffffffff01",          // a varint over 10 bytes
    "8080",                              // a length cut short
    "800a01",                            // a copy with offset 0... cut short
    "800a0500",                          // a copy with offset 0
    "80020501",                          // a copy from before the start
    "8003080102",                        // a literal cut short
    "8002040102ff",                      // a byte left over after the block
    "8003040102",                        // fewer bytes than announced
    "8001040102",                        // more bytes than announced
    "800000",                            // 0 bytes announced, an element follows
    "8005fc0000000041",                  // a literal of 4 GiB announced by a 4-byte length
  })
  void refusesWhatANodeBansFor(String hex) {
    assertBadFrame(hex);
  }

  @Test
  void acceptsWhatSnapAccepts() throws CkbException {
    assertArrayEquals(new byte[0], decode(HEX.parseHex("8000")), "an empty block");
    assertArrayEquals(new byte[] {7, 7, 7, 7, 7}, decode(HEX.parseHex("8005 0007 0101".replace(" ", ""))),
        "a literal, then an overlapping copy");
    assertArrayEquals(new byte[] {1, 2}, decode(HEX.parseHex("8082808000040102")), "a length varint that is not minimal");
  }

  @Test
  void eightMiBIsTheLimit() throws CkbException {
    byte[] zeros = new byte[CompressCodec.MAX_UNCOMPRESSED_LENGTH_IN_BYTES];
    byte[] message = encode(zeros, true);
    assertEquals(0x80, message[0] & 0xFF);
    assertEquals(zeros.length, decode(message).length);
  }

  @Test
  void theWriterCompressesOnlyAboveTheThresholdAndOnlyWhenSmaller() throws CkbException {
    byte[] atThreshold = new byte[CompressCodec.COMPRESSION_THRESHOLD_IN_BYTES];
    assertEquals(0x00, encode(atThreshold, true)[0], "1024 bytes go as they are");
    byte[] above = new byte[CompressCodec.COMPRESSION_THRESHOLD_IN_BYTES + 1];
    byte[] compressed = encode(above, true);
    assertEquals((byte) 0x80, compressed[0]);
    assertTrue(compressed.length < above.length);
    assertArrayEquals(above, decode(compressed));
    byte[] noise = new byte[4096];
    new Random(1).nextBytes(noise);
    byte[] raw = encode(noise, true);
    assertEquals(0x00, raw[0], "snappy would not save bytes");
    assertEquals(noise.length + 1, raw.length);
    assertEquals(0x00, encode(above, false)[0], "a protocol that does not compress");
  }

  @Test
  void anyPayloadRoundTrips() throws CkbException {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (int i = 0; i < 200; i++) {
      byte[] payload = new byte[1 + random.nextInt(i < 100 ? 3000 : 300_000)];
      int alphabet = 1 + random.nextInt(256);
      for (int j = 0; j < payload.length; j++) {
        payload[j] = (byte) random.nextInt(alphabet);
      }
      assertArrayEquals(payload, decode(encode(payload, true)), "seed " + seed + ", payload " + i);
    }
  }

  @Test
  void anEmptyPayloadIsNeverSent() {
    assertThrows(IllegalArgumentException.class, () -> encode(new byte[0], true), "the flag alone: a ban");
  }

  @Test
  void theDecoderReportsOnceAndPassesNothingOnAfterABadFrame() {
    AtomicReference<Throwable> caught = new AtomicReference<>();
    EmbeddedChannel channel = new EmbeddedChannel(new CompressDecoder(), new ChannelInboundHandlerAdapter() {
      @Override
      public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        assertTrue(caught.compareAndSet(null, cause), "one report");
      }
    });
    channel.writeInbound(Unpooled.wrappedBuffer(HEX.parseHex("000102")));
    ByteBuf first = channel.readInbound();
    assertArrayEquals(new byte[] {1, 2}, ByteBufUtil.getBytes(first));
    first.release();
    channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {0}), Unpooled.wrappedBuffer(HEX.parseHex("000102")));
    assertEquals(CkbException.Reason.BAD_FRAME, assertInstanceOf(CkbException.class, caught.get()).reason());
    assertNull(channel.readInbound(), "nothing after a bad frame");
    assertFalse(channel.isOpen(), "closed (a stream is reset)");
    assertFalse(channel.finishAndReleaseAll());
  }
}
