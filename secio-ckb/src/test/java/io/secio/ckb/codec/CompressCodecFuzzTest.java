package io.secio.ckb.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.secio.ckb.CkbException;

/**
 * The compress codec's reader on any message a peer can send: only {@link CkbException} BAD_FRAME
 * escapes, a payload is at most 8 MiB, nothing leaks; and any bytes but none as a payload round-trip through
 * the writer.
 */
class CompressCodecFuzzTest {

  @FuzzTest
  void anyMessage(byte[] message) {
    ByteBuf in = Unpooled.wrappedBuffer(message);
    try {
      ByteBuf payload = CompressCodec.decode(ByteBufAllocator.DEFAULT, in);
      assertTrue(payload.readableBytes() <= CompressCodec.MAX_UNCOMPRESSED_LENGTH_IN_BYTES);
      payload.release();
    } catch (CkbException e) {
      assertEquals(CkbException.Reason.BAD_FRAME, e.reason(), e.getMessage());
    } finally {
      in.release();
    }
  }

  @FuzzTest
  void anyPayload(byte[] payload) throws CkbException {
    if (payload.length == 0) {
      return; // never sent: CompressCodecTest
    }
    ByteBuf message = CompressCodec.encode(ByteBufAllocator.DEFAULT, Unpooled.copiedBuffer(payload), true);
    try {
      ByteBuf back = CompressCodec.decode(ByteBufAllocator.DEFAULT, message);
      assertArrayEquals(payload, ByteBufUtil.getBytes(back));
      back.release();
    } finally {
      message.release();
    }
  }
}
