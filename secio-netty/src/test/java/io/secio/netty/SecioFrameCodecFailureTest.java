package io.secio.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import io.secio.frame.CipherPair;
import io.secio.frame.FrameOpener;
import io.secio.protocol.SecioException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import org.junit.jupiter.api.Test;

/**
 * The codec's one fatal path, seen from the keys and the application: the first failure destroys the
 * sealer and the opener at once (not only when the channel goes inactive), fails the queued writes
 * with its cause, is fired once, and closes the channel; nothing after it is opened or delivered.
 * The codec owns the {@link CipherPair}, so every destroy the sealer and opener see comes from the
 * codec itself; and the opener keeps opening after its
 * destroy, as a provider that keeps its own key copy would, so only the codec stands between a
 * frame after a failure and the application.
 */
class SecioFrameCodecFailureTest {
  private static final int MAX_FRAME = 1024;

  private final TestFrameCipher outbound = new TestFrameCipher((byte) 1);
  private final TestFrameCipher inbound = new TestFrameCipher((byte) 2);
  private final SpySealer sealer = new SpySealer(outbound.sealer);
  private final SpyOpener opener = new SpyOpener(inbound.opener);
  private final Recorder app = new Recorder();
  private final CipherPair ciphers = new CipherPair(sealer, opener);

  private EmbeddedChannel channel() {
    SecioFrameCodec codec = new SecioFrameCodec(ciphers, MAX_FRAME, 100);
    return new EmbeddedChannel(new SecioFrameDecoder(MAX_FRAME), codec, app);
  }

  private ByteBuf frame(byte[] plaintext) throws SecioException {
    byte[] body = inbound.sealer.seal(plaintext); // the peer's end of this direction
    return Unpooled.buffer().writeInt(body.length).writeBytes(body);
  }

  /** A frame whose first ciphertext byte was flipped on the way. */
  private ByteBuf tamperedFrame() throws SecioException {
    ByteBuf bad = frame(new byte[] {1, 2, 3});
    return bad.setByte(4, bad.getByte(4) ^ 1);
  }

  @Test
  void aBadFrameDestroysTheKeysFailsQueuedWritesWithItsCauseAndCloses() throws Exception {
    EmbeddedChannel ch = channel();
    ChannelFuture queued = ch.write(Unpooled.wrappedBuffer(new byte[10]));
    ch.writeInbound(tamperedFrame());

    SecioException cause = assertInstanceOf(SecioException.class, app.exceptions.get(0));
    assertEquals(SecioException.Reason.AUTHENTICATION_FAILED, cause.reason());
    assertEquals(1, app.exceptions.size());
    assertEquals(1, sealer.destroyed, "the sealer's keys outlive the failure");
    assertEquals(1, opener.destroyed, "the opener's keys outlive the failure");
    assertSame(cause, queued.cause(), "the queued write did not fail with the failure");
    assertFalse(ch.isOpen());
    assertEquals(1, app.inactive, "channelInactive was not passed on");
    assertTrue(ciphers.isDestroyed());
    assertNull(ch.readOutbound());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void aSecondFailureInTheSameReadIsNotFiredAgain() throws Exception {
    EmbeddedChannel ch = channel();
    ByteBuf bad = tamperedFrame();
    // The bad frame, then a header over the limit: the decoder fails too, after the codec has.
    ch.writeInbound(Unpooled.wrappedBuffer(bad, Unpooled.buffer().writeInt(MAX_FRAME + 1)));

    assertEquals(1, app.exceptions.size(), () -> app.exceptions.toString());
    assertEquals(SecioException.Reason.AUTHENTICATION_FAILED,
        assertInstanceOf(SecioException.class, app.exceptions.get(0)).reason());
    assertEquals(1, sealer.destroyed);
    assertEquals(1, opener.destroyed);
    assertFalse(ch.isOpen());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void noFrameAfterAFailureReachesTheOpenerOrTheApplication() throws Exception {
    EmbeddedChannel ch = channel();
    byte[] first = {1, 2, 3};
    // A body shorter than the tag fails in the codec, before the opener; the opener could go on.
    ByteBuf tooShort = Unpooled.buffer().writeInt(TestFrameCipher.TAG_SIZE_IN_BYTES - 1)
        .writeZero(TestFrameCipher.TAG_SIZE_IN_BYTES - 1);
    ch.writeInbound(Unpooled.wrappedBuffer(frame(first), tooShort, frame(new byte[] {4, 5, 6})));

    assertArrayEquals(first, app.received());
    assertEquals(1, app.reads);
    assertEquals(1, opener.opened, "a frame after the failure was opened");
    assertEquals(SecioException.Reason.FRAME_TOO_SHORT,
        assertInstanceOf(SecioException.class, app.exceptions.get(0)).reason());
    assertEquals(1, app.exceptions.size());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void aFrameAfterTheKeysAreDestroyedIsDroppedUnopened() throws Exception {
    EmbeddedChannel ch = channel();
    ch.pipeline().fireChannelInactive();
    assertTrue(ciphers.isDestroyed());
    ByteBuf late = frame(new byte[] {7});
    ch.writeInbound(late);
    assertEquals(0, late.refCnt(), "the late frame was not released");
    assertEquals(0, opener.opened);
    assertEquals(0, app.reads);
    assertTrue(app.exceptions.isEmpty(), () -> app.exceptions.toString());
    assertFalse(ch.finishAndReleaseAll());
    assertTrue(ciphers.isDestroyed());
    assertEquals(1, sealer.destroyed, "the keys were destroyed twice");
  }

  @Test
  void anOpenerThatLeavesPlaintextUnwrittenFailsTheConnection() throws Exception {
    EmbeddedChannel ch = channel();
    opener.shortBy = 1;
    ch.writeInbound(frame(new byte[] {1, 2, 3, 4}));
    assertEquals(0, app.reads, "a partly written plaintext was delivered");
    assertInstanceOf(IllegalStateException.class, app.exceptions.get(0));
    assertEquals(1, app.exceptions.size());
    assertEquals(1, opener.destroyed);
    assertFalse(ch.isOpen());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void aSealerThatLeavesTheFrameUnfinishedFailsTheConnection() {
    EmbeddedChannel ch = channel();
    sealer.shortBy = 1;
    ChannelFuture write = ch.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1, 2, 3, 4}));
    assertNull(ch.readOutbound(), "a partly sealed frame was sent");
    assertInstanceOf(IllegalStateException.class, write.cause());
    assertSame(write.cause(), app.exceptions.get(0));
    assertEquals(1, app.exceptions.size());
    assertEquals(1, sealer.destroyed);
    assertFalse(ch.isOpen());
    ChannelFuture later = ch.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {5}));
    assertInstanceOf(ClosedChannelException.class, later.cause());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void aKeyDestructionThatThrowsStillFailsTheQueuedWritesAndCloses() throws Exception {
    EmbeddedChannel ch = channel();
    sealer.destroyFails = true;
    ChannelFuture queued = ch.write(Unpooled.wrappedBuffer(new byte[10]));
    ch.writeInbound(tamperedFrame());

    SecioException cause = assertInstanceOf(SecioException.class, app.exceptions.get(0));
    assertEquals(SecioException.Reason.AUTHENTICATION_FAILED, cause.reason());
    assertSame(cause, queued.cause(), "the queued write did not fail with the failure");
    assertFalse(ch.isOpen());
    assertTrue(ciphers.isDestroyed(), "the session's keys were not destroyed on close");
    assertEquals(1, opener.destroyed, "a sealer that failed to destroy kept the opener's keys");
    assertFalse(ch.finishAndReleaseAll());
  }

  /**
   * Opens with {@code delegate}, or writes all but the last {@code shortBy} bytes; counts opens and
   * destroys, and goes on opening after a destroy.
   */
  private static final class SpyOpener implements FrameOpener {
    private final FrameOpener delegate;
    int shortBy;
    int opened;
    int destroyed;

    SpyOpener(FrameOpener delegate) {
      this.delegate = delegate;
    }

    @Override
    public int overhead() {
      return delegate.overhead();
    }

    @Override
    public void open(ByteBuffer body, ByteBuffer out) throws SecioException {
      opened++;
      ByteBuffer whole = ByteBuffer.allocate(out.remaining());
      delegate.open(body, whole);
      out.put(whole.flip().limit(whole.limit() - shortBy));
    }

    @Override
    public void destroy() {
      destroyed++;
    }
  }

  @Test
  void aResetOfTheTransportReachesTheApplicationAsConnectionFailedCarryingIt() throws Exception {
    EmbeddedChannel ch = channel();
    ChannelFuture queued = ch.write(Unpooled.wrappedBuffer(new byte[10]));
    java.io.IOException reset = new java.net.SocketException("Connection reset");
    ch.pipeline().fireExceptionCaught(reset);

    SecioException cause = assertInstanceOf(SecioException.class, app.exceptions.get(0));
    assertEquals(SecioException.Reason.CONNECTION_FAILED, cause.reason());
    assertSame(reset, cause.getCause());
    assertEquals(1, app.exceptions.size());
    assertSame(cause, queued.cause());
    assertTrue(ciphers.isDestroyed());
    assertFalse(ch.isOpen());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void anExceptionOfAnotherKindPassesOnUntouched() {
    EmbeddedChannel ch = channel();
    IllegalStateException other = new IllegalStateException("a handler before secio");
    ch.pipeline().fireExceptionCaught(other);
    assertEquals(java.util.List.of(other), app.exceptions);
    assertTrue(ch.isOpen());
    assertFalse(ciphers.isDestroyed());
    assertFalse(ch.finishAndReleaseAll());
  }

  /**
   * Good frames and then a bad one in one read: the good ones reach the application; what it wrote
   * in answer without flushing fails with the bad frame's cause, what it flushed was sealed and went
   * out before the close. The same as when the bad frame comes in a later read.
   */
  @Test
  void answersToGoodFramesBeforeABadOneGoOutOnlyIfFlushed() throws Exception {
    java.util.List<ChannelFuture> answers = new java.util.ArrayList<>();
    EmbeddedChannel ch = new EmbeddedChannel(new SecioFrameDecoder(MAX_FRAME),
        new SecioFrameCodec(ciphers, MAX_FRAME, 100), new io.netty.channel.ChannelInboundHandlerAdapter() {
          @Override
          public void channelRead(io.netty.channel.ChannelHandlerContext ctx, Object msg) {
            ByteBuf in = (ByteBuf) msg;
            boolean flush = in.getByte(in.readerIndex()) == 'F';
            answers.add(flush ? ctx.writeAndFlush(in) : ctx.write(in));
          }

          @Override
          public void exceptionCaught(io.netty.channel.ChannelHandlerContext ctx, Throwable cause) {
            app.exceptions.add(cause);
          }
        });
    ch.writeInbound(Unpooled.wrappedBuffer(frame(new byte[] {'F', 1}), frame(new byte[] {'w', 2}),
        tamperedFrame()));

    assertEquals(2, answers.size());
    assertTrue(answers.get(0).isSuccess(), "the flushed answer did not go out");
    ByteBuf sent = ch.readOutbound();
    assertEquals(4 + 2 + TestFrameCipher.TAG_SIZE_IN_BYTES, sent.readableBytes());
    sent.release();
    assertNull(ch.readOutbound(), "an answer that was never flushed was sent");
    SecioException cause = assertInstanceOf(SecioException.class, app.exceptions.get(0));
    assertEquals(SecioException.Reason.AUTHENTICATION_FAILED, cause.reason());
    assertSame(cause, answers.get(1).cause(), "the unflushed answer did not fail with the cause");
    assertFalse(ch.isOpen());
    assertFalse(ch.finishAndReleaseAll());
  }
}
