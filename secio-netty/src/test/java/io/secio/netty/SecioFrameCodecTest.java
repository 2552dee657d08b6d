package io.secio.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.UnsupportedMessageTypeException;
import io.secio.SecioConfig;
import io.secio.frame.CipherPair;
import io.secio.frame.FrameOpener;
import io.secio.frame.FrameSealer;
import io.secio.protocol.SecioException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The post-handshake codec, on two embedded channels keyed with {@link TestFrameCipher}. */
class SecioFrameCodecTest {
  private static final int MAX_FRAME = 1024;
  private static final int TAG = TestFrameCipher.TAG_SIZE_IN_BYTES;

  private final TestFrameCipher clientToServer = new TestFrameCipher((byte) 1);
  private final TestFrameCipher serverToClient = new TestFrameCipher((byte) 2);
  private final Recorder clientApp = new Recorder();
  private final Recorder serverApp = new Recorder();

  private SecioFrameCodec clientCodec(int chunk) {
    return new SecioFrameCodec(new CipherPair(clientToServer.sealer, serverToClient.opener),
        MAX_FRAME, chunk);
  }

  private SecioFrameCodec serverCodec() {
    return new SecioFrameCodec(new CipherPair(serverToClient.sealer, clientToServer.opener),
        MAX_FRAME, SecioConfig.DEFAULT_MAX_PLAINTEXT_PER_FRAME_IN_BYTES);
  }

  private EmbeddedPair pair(int clientChunk) {
    return new EmbeddedPair(
        new ChannelHandler[] {new SecioFrameDecoder(MAX_FRAME), clientCodec(clientChunk), clientApp},
        new ChannelHandler[] {new SecioFrameDecoder(MAX_FRAME), serverCodec(), serverApp});
  }

  private static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static List<ByteBuf> drainOutbound(EmbeddedChannel ch) {
    List<ByteBuf> out = new ArrayList<>();
    for (ByteBuf b; (b = ch.readOutbound()) != null; ) {
      out.add(b);
    }
    return out;
  }

  @Test
  void manySmallWritesBecomeOneFrameAtFlush() {
    EmbeddedPair p = pair(SecioConfig.DEFAULT_MAX_PLAINTEXT_PER_FRAME_IN_BYTES);
    byte[] data = random(100 * 9, 1);
    List<ChannelFuture> writes = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      writes.add(p.client.write(Unpooled.wrappedBuffer(data, i * 9, 9)));
    }
    assertNull(p.client.readOutbound(), "encrypted before flush");
    assertEquals(0, clientToServer.sealer.framesSealed);
    assertFalse(writes.get(0).isDone());

    p.client.flush();
    List<ByteBuf> frames = drainOutbound(p.client);
    assertEquals(1, frames.size());
    assertEquals(4 + data.length + TAG, frames.get(0).readableBytes());
    assertEquals(data.length + TAG, frames.get(0).getInt(0));
    assertTrue(writes.stream().allMatch(ChannelFuture::isSuccess));

    p.server.writeInbound(frames.get(0));
    assertArrayEquals(data, serverApp.received());
    assertEquals(1, serverApp.reads);
    p.close();
  }

  @Test
  void writeLargerThanTheFrameLimitIsSplitUnderIt() {
    EmbeddedPair p = pair(SecioConfig.DEFAULT_MAX_PLAINTEXT_PER_FRAME_IN_BYTES);
    byte[] data = random(10_000, 2);
    ChannelFuture write = p.client.writeAndFlush(Unpooled.wrappedBuffer(data));
    assertTrue(write.isSuccess());
    List<ByteBuf> frames = drainOutbound(p.client);
    int perFrame = MAX_FRAME - TAG;
    assertEquals((data.length + perFrame - 1) / perFrame, frames.size());
    for (ByteBuf f : frames) {
      assertTrue(f.getInt(0) <= MAX_FRAME, "frame of " + f.getInt(0));
      assertEquals(f.readableBytes() - 4, f.getInt(0));
      p.server.writeInbound(f);
    }
    assertArrayEquals(data, serverApp.received());
    assertTrue(serverApp.exceptions.isEmpty());
    p.close();
  }

  @Test
  void configuredChunkSizeBoundsThePlaintextPerFrame() {
    EmbeddedPair p = pair(100);
    byte[] data = random(1000, 3);
    p.client.writeAndFlush(Unpooled.wrappedBuffer(data));
    List<ByteBuf> frames = drainOutbound(p.client);
    assertEquals(10, frames.size());
    for (ByteBuf f : frames) {
      assertEquals(100 + TAG, f.getInt(0));
      p.server.writeInbound(f);
    }
    assertArrayEquals(data, serverApp.received());
    p.close();
  }

  @Test
  void bothDirectionsRoundTripByteExact() {
    EmbeddedPair p = pair(SecioConfig.DEFAULT_MAX_PLAINTEXT_PER_FRAME_IN_BYTES);
    byte[] up = random(5000, 4);
    byte[] down = random(7000, 5);
    p.client.writeAndFlush(Unpooled.wrappedBuffer(up));
    p.server.writeAndFlush(Unpooled.wrappedBuffer(down));
    p.pump();
    assertArrayEquals(up, serverApp.received());
    assertArrayEquals(down, clientApp.received());
    p.close();
  }

  /** Holds the frames the codec writes, so a test decides when each is "written". */
  private static final class Gate extends ChannelOutboundHandlerAdapter {
    final ArrayDeque<ChannelPromise> held = new ArrayDeque<>();
    final List<Integer> lengths = new ArrayList<>();

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
      ByteBuf frame = (ByteBuf) msg;
      lengths.add(frame.readableBytes());
      frame.release();
      held.add(promise);
    }
  }

  @Test
  void writePromiseCompletesWithTheFrameCarryingItsLastByte() {
    Gate gate = new Gate();
    EmbeddedChannel ch = new EmbeddedChannel(gate, new SecioFrameDecoder(MAX_FRAME), clientCodec(1000));
    ChannelFuture a = ch.write(Unpooled.wrappedBuffer(new byte[2500]));
    ChannelFuture b = ch.write(Unpooled.wrappedBuffer(new byte[1600]));
    ch.flush();
    // 4100 bytes in frames of 1000: a ends in frame 3, b in frame 5.
    assertEquals(List.of(1000, 1000, 1000, 1000, 100),
        gate.lengths.stream().map(n -> n - 4 - TAG).toList());
    boolean[][] expected = {{false, false}, {false, false}, {true, false}, {true, false}, {true, true}};
    for (boolean[] step : expected) {
      gate.held.poll().setSuccess();
      assertEquals(step[0], a.isSuccess());
      assertEquals(step[1], b.isSuccess());
    }
    assertFalse(ch.finishAndReleaseAll());
  }

  /** Keeps the buffers that reach it, unreleased, for a test to look at. */
  private static final class Keeper extends io.netty.channel.ChannelInboundHandlerAdapter {
    final List<ByteBuf> kept = new ArrayList<>();

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      kept.add((ByteBuf) msg);
    }
  }

  /** The whole frame (header and body) the client codec makes of {@code data}. */
  private byte[] sealedFrame(byte[] data) {
    EmbeddedChannel client = new EmbeddedChannel(clientCodec(MAX_FRAME));
    client.writeAndFlush(Unpooled.wrappedBuffer(data));
    ByteBuf sealed = client.readOutbound();
    byte[] wire = ByteBufUtil.getBytes(sealed);
    sealed.release();
    assertFalse(client.finishAndReleaseAll());
    return wire;
  }

  @Test
  void plaintextIsDeliveredInANewBufferAndTheFrameIsFreedAtOnce() {
    byte[] data = random(700, 11);
    byte[] wire = sealedFrame(data);
    byte[] arrived = wire.clone();
    ByteBuf frame = Unpooled.wrappedBuffer(arrived);
    Keeper keeper = new Keeper();
    EmbeddedChannel server = new EmbeddedChannel(new SecioFrameDecoder(MAX_FRAME), serverCodec(), keeper);
    server.writeInbound(frame);
    assertEquals(1, keeper.kept.size());
    ByteBuf plaintext = keeper.kept.get(0);
    assertArrayEquals(data, ByteBufUtil.getBytes(plaintext));
    // Opened out of place: the frame still holds its ciphertext and is freed while the plaintext lives.
    assertArrayEquals(wire, arrived, "the frame was written to");
    assertEquals(0, frame.refCnt(), "the frame buffer is held after it was opened");
    plaintext.release();
    assertFalse(server.finishAndReleaseAll());
  }

  @Test
  void aReadOnlyFrameIsOpenedIntoANewBuffer() {
    byte[] data = random(300, 12);
    byte[] wire = sealedFrame(data);
    byte[] arrived = wire.clone();
    Keeper keeper = new Keeper();
    EmbeddedChannel server = new EmbeddedChannel(new SecioFrameDecoder(MAX_FRAME), serverCodec(), keeper);
    server.writeInbound(Unpooled.wrappedBuffer(arrived).asReadOnly());
    ByteBuf plaintext = keeper.kept.get(0);
    assertArrayEquals(data, ByteBufUtil.getBytes(plaintext));
    assertArrayEquals(wire, arrived, "a read-only buffer was written to");
    plaintext.release();
    assertFalse(server.finishAndReleaseAll());
  }

  @Test
  void aLargeFlushIsSealedAFewFramesAheadOfTheSocket() {
    Gate gate = new Gate();
    int chunk = 16 * 1024;
    SecioFrameCodec codec = new SecioFrameCodec(new CipherPair(clientToServer.sealer, serverToClient.opener), 1 << 20, chunk);
    EmbeddedChannel ch = new EmbeddedChannel(gate, codec);
    byte[] data = random(1 << 20, 13);
    ChannelFuture write = ch.writeAndFlush(Unpooled.wrappedBuffer(data));
    int frameSize = 4 + chunk + TAG;
    int ahead = (SecioFrameCodec.SEALED_AHEAD_IN_BYTES + frameSize - 1) / frameSize;
    assertEquals(ahead, gate.lengths.size(), "frames sealed before the socket took any");
    int total = data.length / chunk;
    for (int written = 0; written < total; written++) {
      assertFalse(write.isDone());
      gate.held.poll().setSuccess();
      ch.runPendingTasks();
      assertEquals(Math.min(total, written + 1 + ahead), gate.lengths.size());
      assertTrue(gate.held.size() <= ahead);
    }
    assertTrue(write.isSuccess());
    assertEquals(total, clientToServer.sealer.framesSealed);
    assertFalse(ch.finishAndReleaseAll());
  }

  /** A codec whose frames are {@code frameSize} bytes on the wire when full, behind a {@link Gate}. */
  private EmbeddedChannel gated(Gate gate, int frameSize) {
    SecioFrameCodec codec = new SecioFrameCodec(new CipherPair(clientToServer.sealer, serverToClient.opener), 1 << 20, frameSize - 4 - TAG);
    return new EmbeddedChannel(gate, codec);
  }

  @Test
  void sealingStopsOnceExactlyTheSealedAheadBytesWait() {
    Gate gate = new Gate();
    int frameSize = 16 * 1024;
    EmbeddedChannel ch = gated(gate, frameSize);
    int ahead = SecioFrameCodec.SEALED_AHEAD_IN_BYTES / frameSize;
    assertEquals(SecioFrameCodec.SEALED_AHEAD_IN_BYTES, ahead * frameSize, "frames fill it exactly");
    ChannelFuture write = ch.writeAndFlush(Unpooled.wrappedBuffer(new byte[(ahead + 3) * (frameSize - 4 - TAG)]));
    assertEquals(ahead, gate.lengths.size(), "frames sealed before the socket took any");
    gate.held.poll().setSuccess();
    ch.runPendingTasks();
    assertEquals(ahead + 1, gate.lengths.size(), "one frame taken, one more sealed");
    while (!gate.held.isEmpty()) {
      gate.held.poll().setSuccess();
      ch.runPendingTasks();
    }
    assertEquals(ahead + 3, gate.lengths.size());
    assertTrue(write.isSuccess());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void sealingResumesOnlyOnceLessThanTheSealedAheadBytesWait() {
    Gate gate = new Gate();
    int frameSize = SecioFrameCodec.SEALED_AHEAD_IN_BYTES / 2;
    EmbeddedChannel ch = gated(gate, frameSize);
    // A small frame first, then two full ones: together just over the limit, so sealing pauses.
    ch.writeAndFlush(Unpooled.wrappedBuffer(new byte[1]));
    ChannelFuture large = ch.writeAndFlush(Unpooled.wrappedBuffer(new byte[3 * (frameSize - 4 - TAG)]));
    assertEquals(List.of(4 + 1 + TAG, frameSize, frameSize), gate.lengths);
    // The small frame leaves: exactly the limit still waits, so nothing more is sealed.
    gate.held.poll().setSuccess();
    ch.runPendingTasks();
    assertEquals(3, gate.lengths.size(), "sealed ahead with the limit reached");
    // A full frame leaves: below the limit, the last frame is sealed.
    gate.held.poll().setSuccess();
    ch.runPendingTasks();
    assertEquals(4, gate.lengths.size(), "sealing did not resume");
    while (!gate.held.isEmpty()) {
      gate.held.poll().setSuccess();
      ch.runPendingTasks();
    }
    assertTrue(large.isSuccess());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void aLargeFlushArrivesWhole() {
    EmbeddedPair p = pair(SecioConfig.DEFAULT_MAX_PLAINTEXT_PER_FRAME_IN_BYTES);
    byte[] data = random(300_000, 14);
    ChannelFuture write = p.client.writeAndFlush(Unpooled.wrappedBuffer(data));
    p.pump();
    assertTrue(write.isSuccess());
    assertArrayEquals(data, serverApp.received());
    p.close();
  }

  @Test
  void aWriteFromAWriteListenerKeepsTheFrameOrder() {
    EmbeddedPair p = pair(100);
    byte[] first = random(1000, 15);
    byte[] second = random(1000, 16);
    p.client.writeAndFlush(Unpooled.wrappedBuffer(first)).addListener(f ->
        p.client.writeAndFlush(Unpooled.wrappedBuffer(second)));
    p.client.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {7}));
    p.pump();
    // The listener's write is flushed from inside the first flush, before the third write is made.
    assertArrayEquals(concat(first, second, new byte[] {7}), serverApp.received());
    assertTrue(serverApp.exceptions.isEmpty(), () -> serverApp.exceptions.toString());
    p.close();
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  @Test
  void frameBodyShorterThanTheTagFailsWithFrameTooShort() {
    EmbeddedPair p = pair(SecioConfig.DEFAULT_MAX_PLAINTEXT_PER_FRAME_IN_BYTES);
    p.server.writeInbound(Unpooled.buffer().writeInt(TAG - 1).writeZero(TAG - 1));
    assertEquals(1, serverApp.exceptions.size());
    SecioException e = assertInstanceOf(SecioException.class, serverApp.exceptions.get(0));
    assertEquals(SecioException.Reason.FRAME_TOO_SHORT, e.reason());
    assertFalse(p.server.isOpen());
    assertEquals(0, serverApp.reads);
    p.close();
  }

  @Test
  void nothingIsDeliveredAfterABadFrame() {
    EmbeddedPair p = pair(SecioConfig.DEFAULT_MAX_PLAINTEXT_PER_FRAME_IN_BYTES);
    byte[][] messages = {random(50, 6), random(60, 7), random(70, 8)};
    for (byte[] m : messages) {
      p.client.writeAndFlush(Unpooled.wrappedBuffer(m));
    }
    List<ByteBuf> frames = drainOutbound(p.client);
    assertEquals(3, frames.size());
    ByteBuf second = frames.get(1);
    second.setByte(10, second.getByte(10) ^ 0x01);
    // All three frames arrive in one read: the valid third one must still be dropped.
    p.server.writeInbound(Unpooled.wrappedBuffer(frames.toArray(new ByteBuf[0])));
    assertArrayEquals(messages[0], serverApp.received());
    assertEquals(1, serverApp.exceptions.size());
    assertEquals(SecioException.Reason.AUTHENTICATION_FAILED,
        assertInstanceOf(SecioException.class, serverApp.exceptions.get(0)).reason());
    assertFalse(p.server.isOpen());
    p.close();
  }

  @Test
  void frameTooLongAfterTheHandshakeClosesWithOneException() {
    EmbeddedPair p = pair(SecioConfig.DEFAULT_MAX_PLAINTEXT_PER_FRAME_IN_BYTES);
    p.server.writeInbound(Unpooled.buffer().writeInt(MAX_FRAME + 1).writeZero(100));
    assertEquals(1, serverApp.exceptions.size());
    assertEquals(SecioException.Reason.FRAME_TOO_LONG,
        assertInstanceOf(SecioException.class, serverApp.exceptions.get(0)).reason());
    assertFalse(p.server.isOpen());
    p.close();
  }

  @Test
  void peerClosingMidFrameDeliversNothingOfThatFrame() {
    EmbeddedPair p = pair(SecioConfig.DEFAULT_MAX_PLAINTEXT_PER_FRAME_IN_BYTES);
    byte[] whole = random(40, 9);
    p.client.writeAndFlush(Unpooled.wrappedBuffer(whole));
    p.client.writeAndFlush(Unpooled.wrappedBuffer(random(500, 10)));
    List<ByteBuf> frames = drainOutbound(p.client);
    p.server.writeInbound(frames.get(0));
    ByteBuf cut = frames.get(1);
    p.server.writeInbound(cut.retainedSlice(0, cut.readableBytes() / 2));
    cut.release();
    p.server.close();
    assertArrayEquals(whole, serverApp.received());
    assertEquals(1, serverApp.reads);
    assertTrue(serverApp.exceptions.isEmpty(), serverApp.exceptions.toString());
    p.close();
  }

  @Test
  void keysAreDestroyedAndQueuedWritesFailedWhenTheChannelCloses() {
    EmbeddedPair p = pair(SecioConfig.DEFAULT_MAX_PLAINTEXT_PER_FRAME_IN_BYTES);
    ChannelFuture unflushed = p.client.write(Unpooled.wrappedBuffer(new byte[100]));
    p.client.close();
    assertInstanceOf(ClosedChannelException.class, unflushed.cause());
    assertTrue(clientToServer.sealer.destroyed);
    assertTrue(serverToClient.opener.destroyed);
    assertFalse(serverToClient.sealer.destroyed);
    p.close();
  }

  @Test
  void keysAreDestroyedWhenTheCodecIsRemoved() {
    EmbeddedPair p = pair(SecioConfig.DEFAULT_MAX_PLAINTEXT_PER_FRAME_IN_BYTES);
    p.client.pipeline().remove(SecioFrameCodec.class);
    assertTrue(clientToServer.sealer.destroyed);
    assertTrue(serverToClient.opener.destroyed);
    p.close();
  }

  @Test
  void unflushedBytesCountAgainstWritability() {
    EmbeddedPair p = pair(SecioConfig.DEFAULT_MAX_PLAINTEXT_PER_FRAME_IN_BYTES);
    p.client.config().setWriteBufferWaterMark(new WriteBufferWaterMark(16, 32));
    assertTrue(p.client.isWritable());
    p.client.write(Unpooled.wrappedBuffer(new byte[64]));
    assertFalse(p.client.isWritable(), "queued plaintext is invisible to backpressure");
    p.client.flush();
    assertTrue(p.client.isWritable());
    p.pump();
    assertEquals(64, serverApp.received().length);
    p.close();
  }

  @Test
  void nonBufferWritesAreRejectedNotSentInPlaintext() {
    EmbeddedPair p = pair(SecioConfig.DEFAULT_MAX_PLAINTEXT_PER_FRAME_IN_BYTES);
    ChannelFuture f = p.client.writeAndFlush("hello");
    assertInstanceOf(UnsupportedMessageTypeException.class, f.cause());
    assertNull(p.client.readOutbound());
    p.close();
  }

  @Test
  void emptyWritesSucceedWithoutAFrame() {
    EmbeddedPair p = pair(SecioConfig.DEFAULT_MAX_PLAINTEXT_PER_FRAME_IN_BYTES);
    ChannelFuture f = p.client.writeAndFlush(Unpooled.EMPTY_BUFFER);
    assertTrue(f.isSuccess());
    assertEquals(0, clientToServer.sealer.framesSealed);
    for (ByteBuf b : drainOutbound(p.client)) {
      assertFalse(b.isReadable());
      b.release();
    }
    p.close();
  }

  @Test
  void sealedFramesAreWhatTheCipherProduces() throws Exception {
    EmbeddedPair p = pair(SecioConfig.DEFAULT_MAX_PLAINTEXT_PER_FRAME_IN_BYTES);
    byte[] data = random(33, 11);
    p.client.writeAndFlush(Unpooled.wrappedBuffer(data));
    ByteBuf frame = p.client.readOutbound();
    byte[] body = new byte[frame.readableBytes() - 4];
    frame.getBytes(4, body);
    frame.release();
    byte[] expected = new TestFrameCipher((byte) 1).sealer.seal(data);
    assertArrayEquals(expected, body);
    assertFalse(Arrays.equals(Arrays.copyOf(body, data.length), data), "plaintext on the wire");
    p.close();
  }

  /**
   * A direct write in one piece is sealed from where it lies; a heap write, or writes coalesced into
   * one frame, are copied once into direct memory of their own, apart from the frame (a provider
   * copies an input that overlaps its output once more). Either way the frame is the cipher's.
   */
  @Test
  void aDirectWriteIsSealedFromItsOwnMemoryAndOthersFromACopyApartFromTheFrame() throws Exception {
    SpySealer sealer = new SpySealer(clientToServer.sealer);
    EmbeddedChannel ch = new EmbeddedChannel(
        new SecioFrameCodec(new CipherPair(sealer, serverToClient.opener), MAX_FRAME, MAX_FRAME));
    byte[] one = random(100, 17);
    byte[] two = random(50, 18);
    ByteBuf direct = ch.alloc().directBuffer(100).writeBytes(one);
    long directAt = SpySealer.address(direct.nioBuffer());
    assertTrue(directAt != -1);
    ch.writeAndFlush(direct);
    ch.writeAndFlush(Unpooled.wrappedBuffer(two));
    ch.write(ch.alloc().directBuffer(100).writeBytes(one));
    ch.write(ch.alloc().directBuffer(50).writeBytes(two));
    ch.flush();

    assertEquals(3, sealer.inAndOut.size());
    assertEquals(directAt, sealer.inAndOut.get(0)[0], "the direct write was copied before sealing");
    assertTrue(sealer.inAndOut.get(0)[1] != directAt);
    assertTrue(sealer.inAndOut.stream().allMatch(a -> a[0] != -1 && a[1] != -1), "heap memory sealed");
    int[] lengths = {two.length, one.length + two.length};
    for (int i = 1; i <= 2; i++) {
      long in = sealer.inAndOut.get(i)[0];
      long out = sealer.inAndOut.get(i)[1];
      assertTrue(in + lengths[i - 1] <= out || out + lengths[i - 1] + TAG <= in,
          "frame " + i + " sealed from memory that overlaps the frame");
    }
    FrameOpener peer = new TestFrameCipher((byte) 1).opener;
    for (byte[] expected : new byte[][] {one, two, concat(one, two)}) {
      ByteBuf frame = ch.readOutbound();
      ByteBuffer plaintext = ByteBuffer.allocate(expected.length);
      peer.open(frame.nioBuffer(4, frame.readableBytes() - 4), plaintext);
      frame.release();
      assertArrayEquals(expected, plaintext.array());
    }
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void sealerRefusingToSealClosesTheChannelAndFailsPendingWrites() {
    FrameSealer exhausted = new FrameSealer() {
      @Override
      public int overhead() {
        return TAG;
      }

      @Override
      public void seal(ByteBuffer plaintext, ByteBuffer out) throws SecioException {
        throw new SecioException(SecioException.Reason.NONCE_EXHAUSTED);
      }

      @Override
      public void destroy() {}
    };
    Recorder app = new Recorder();
    EmbeddedChannel ch = new EmbeddedChannel(new SecioFrameDecoder(MAX_FRAME),
        new SecioFrameCodec(new CipherPair(exhausted, serverToClient.opener), MAX_FRAME, 100), app);
    ChannelFuture first = ch.write(Unpooled.wrappedBuffer(new byte[150]));
    ChannelFuture second = ch.write(Unpooled.wrappedBuffer(new byte[10]));
    ch.flush();
    assertEquals(SecioException.Reason.NONCE_EXHAUSTED,
        assertInstanceOf(SecioException.class, first.cause()).reason());
    assertInstanceOf(SecioException.class, second.cause());
    assertEquals(1, app.exceptions.size());
    assertFalse(ch.isOpen());
    assertNull(ch.readOutbound(), "a frame left after sealing failed");
    assertFalse(ch.finishAndReleaseAll());
  }
}
