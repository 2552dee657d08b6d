package io.secio.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import io.secio.frame.CipherPair;
import java.nio.channels.ClosedChannelException;
import org.junit.jupiter.api.Test;

/**
 * The edges of the codec's and the decoder's contracts: the limits they accept, what they pass on
 * untouched, and that after the first failure they stay quiet.
 */
class SecioFrameCodecContractTest {
  private static final int TAG = TestFrameCipher.TAG_SIZE_IN_BYTES;

  private final TestFrameCipher outbound = new TestFrameCipher((byte) 1);
  private final TestFrameCipher inbound = new TestFrameCipher((byte) 2);

  private SecioFrameCodec codec(int maxFrameLength, int maxPlaintextPerFrame) {
    return new SecioFrameCodec(new CipherPair(outbound.sealer, inbound.opener), maxFrameLength,
        maxPlaintextPerFrame);
  }

  @Test
  void thePlaintextPerFrameIsTheSmallerOfTheLimitLessTheTagAndTheChunk() {
    assertEquals(100, codec(1024, 100).maxPlaintextPerFrame());
    assertEquals(1024 - TAG, codec(1024, 4096).maxPlaintextPerFrame());
    assertEquals(1, codec(TAG + 1, 4096).maxPlaintextPerFrame());
    assertEquals(1, codec(1024, 1).maxPlaintextPerFrame());
  }

  @Test
  void aLimitWithNoRoomForDataOrAChunkOfNothingIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> codec(TAG, 100));
    assertThrows(IllegalArgumentException.class, () -> codec(1024, 0));
  }

  @Test
  void writesAfterCloseFailWithoutAFrame() {
    EmbeddedChannel ch = new EmbeddedChannel(codec(1024, 100));
    ch.pipeline().fireChannelInactive();
    ChannelFuture late = ch.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1}));
    assertInstanceOf(ClosedChannelException.class, late.cause());
    assertNull(ch.readOutbound());
    assertEquals(0, outbound.sealer.framesSealed);
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void readsThatAreNotBuffersPassThrough() {
    EmbeddedChannel ch = new EmbeddedChannel(codec(1024, 100));
    Object notABuffer = "not a frame";
    assertTrue(ch.writeInbound(notABuffer));
    assertSame(notABuffer, ch.readInbound());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void exceptionsOtherThanSecioPassOnAndKeepTheChannelOpen() {
    Recorder app = new Recorder();
    EmbeddedChannel ch = new EmbeddedChannel(codec(1024, 100), app);
    IllegalStateException other = new IllegalStateException("not ours");
    ch.pipeline().fireExceptionCaught(other);
    assertEquals(1, app.exceptions.size());
    assertSame(other, app.exceptions.get(0));
    assertTrue(ch.isOpen());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void anEmptyFrameOpensToNothingAndTheStreamGoesOn() throws Exception {
    Recorder app = new Recorder();
    EmbeddedChannel ch = new EmbeddedChannel(codec(1024, 100), app);
    TestFrameCipher.Sealer peer = inbound.sealer; // the peer's end of this direction
    ByteBuf empty = Unpooled.wrappedBuffer(peer.seal(new byte[0]));
    assertEquals(TAG, empty.readableBytes());
    ch.writeInbound(empty);
    assertEquals(0, empty.refCnt());
    ch.writeInbound(Unpooled.wrappedBuffer(peer.seal(new byte[] {9})));
    assertTrue(app.exceptions.isEmpty(), () -> app.exceptions.toString());
    assertEquals(1, app.reads, "an empty frame was delivered");
    assertArrayEquals(new byte[] {9}, app.received());
    assertTrue(ch.isOpen());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void theDecoderRefusesANegativeLimitAndReportsItsOwn() {
    assertThrows(IllegalArgumentException.class, () -> new SecioFrameDecoder(-1));
    assertEquals(0, new SecioFrameDecoder(0).maxFrameLength());
    assertEquals(77, new SecioFrameDecoder(77).maxFrameLength());
  }

  @Test
  void aDecoderWithALimitOfZeroPassesOnlyEmptyFrames() {
    EmbeddedChannel ch = new EmbeddedChannel(new SecioFrameDecoder(0));
    assertTrue(ch.writeInbound(Unpooled.buffer().writeInt(0)));
    ByteBuf empty = ch.readInbound();
    assertEquals(0, empty.readableBytes());
    empty.release();
    assertThrows(Exception.class, () -> ch.writeInbound(Unpooled.buffer().writeInt(1).writeByte(7)));
    assertFalse(ch.finishAndReleaseAll());
  }
}
