package io.secio.streams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import io.secio.testsupport.Collect;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Backpressure on every muxer ({@code docs/STREAMS.md} §3): a stream is unwritable while its
 * connection is, or while more than its high water mark waits in it; bytes already queued go first
 * when the connection drains, and the streams hear only its end; a slow stream holds no other up.
 * yamux's credit is {@code yamux.CreditTest}'s.
 */
class FlowControlTest {
  private static final int MIB = 1024 * 1024;

  static Stream<Muxer> muxers() {
    return Muxer.all();
  }

  private static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void aSlowStreamHoldsNoOtherUp(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer, ch -> ch.config().setAutoRead(false))) {
      StreamChannel blocked = pair.open(Collect.observing());
      StreamChannel fast = pair.open(Collect.observing());
      pair.serverStreams.get(1).stream().config().setAutoRead(true);
      blocked.writeAndFlush(Unpooled.wrappedBuffer(new byte[4 * MIB]));
      byte[] data = random(8 * MIB, 2);
      fast.writeAndFlush(Unpooled.wrappedBuffer(data));
      pair.pump();
      assertArrayEquals(data, pair.serverStreams.get(1).collect().received());
      assertEquals(0, pair.serverStreams.get(0).collect().received().length);
      assertTrue(blocked.isOpen());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void aBufferSentInPiecesLeavesNothingWaitingSoItsStreamEndsCleanly(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      StreamChannel out = pair.open(Collect.observing());
      byte[] data = random(3 * MIB, 5); // over yamux's window and mplex's largest message: several frames
      out.writeAndFlush(Unpooled.wrappedBuffer(data));
      pair.pump();
      CollectedStream accepted = pair.serverStreams.get(0);
      assertArrayEquals(data, accepted.collect().received());
      out.close();
      pair.pump();
      assertEquals(List.of("active", "inactive"), accepted.collect().events(), "ended, not reset");
    }
  }

  /** What the connection had flushed after each write a stream made while the connection's read went on. */
  private static final class FlushesDuringARead extends ChannelInboundHandlerAdapter {
    final List<Integer> flushedAfterEachWrite = new ArrayList<>();

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ReferenceCountUtil.release(msg);
      EmbeddedChannel connection = (EmbeddedChannel) ctx.channel().parent();
      ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[100]));
      flushedAfterEachWrite.add(connection.outboundMessages().size());
      ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[256 * 1024 - 100]));
      flushedAfterEachWrite.add(connection.outboundMessages().size());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void flushesWaitForTheEndOfTheConnectionsReadUntil256KiBOfDataWait(Muxer muxer) {
    FlushesDuringARead flushes = new FlushesDuringARead();
    try (SessionPair pair = new SessionPair(muxer, ch -> ch.pipeline().addLast(flushes))) {
      StreamChannel out = pair.open(Collect.observing());
      // Writable all along: it is the bytes written that flush, not the connection filling up.
      pair.server.config().setWriteBufferWaterMark(new WriteBufferWaterMark(MIB, 2 * MIB));
      out.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1}));
      pair.deliverInOneRead(pair.client, pair.server);
      assertEquals(0, flushes.flushedAfterEachWrite.get(0), "100 bytes wait for the read's end");
      assertTrue(flushes.flushedAfterEachWrite.get(1) > 0, "256 KiB go at once");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void theConnectionsWritabilityReachesEveryStream(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      StreamChannel a = pair.open(Collect.observing());
      StreamChannel b = pair.open(Collect.observing());
      List<String> sawA = new ArrayList<>();
      a.pipeline().addLast(new ChannelInboundHandlerAdapter() {
        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
          sawA.add("writable=" + ctx.channel().isWritable());
        }
      });
      pair.client.unsafe().outboundBuffer().setUserDefinedWritability(1, false);
      pair.client.runPendingTasks();
      assertFalse(a.isWritable());
      assertFalse(b.isWritable());
      pair.client.unsafe().outboundBuffer().setUserDefinedWritability(1, true);
      pair.client.runPendingTasks();
      assertTrue(a.isWritable());
      assertTrue(b.isWritable());
      assertEquals(List.of("writable=false", "writable=true"), sawA);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void queuedBytesRefillingTheConnectionGoFirstAndTheStreamsHearOnlyTheEnd(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      StreamChannel a = pair.open(Collect.observing());
      StreamChannel b = pair.open(Collect.observing());
      List<String> sawB = new ArrayList<>();
      b.pipeline().addLast(new ChannelInboundHandlerAdapter() {
        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
          sawB.add("writable=" + ctx.channel().isWritable());
        }
      });
      // Each 64 KiB frame fills the connection on its own: it flips twice per frame as it drains.
      pair.client.config().setWriteBufferWaterMark(new WriteBufferWaterMark(16 * 1024, 32 * 1024));
      pair.client.unsafe().outboundBuffer().setUserDefinedWritability(1, false);
      pair.client.runPendingTasks();
      byte[] data = random(4 * 64 * 1024, 3);
      for (int i = 0; i < 4; i++) {
        a.write(Unpooled.wrappedBuffer(data, i * 64 * 1024, 64 * 1024));
      }
      a.flush();
      pair.client.unsafe().outboundBuffer().setUserDefinedWritability(1, true);
      pair.client.runPendingTasks();
      pair.pump();
      assertArrayEquals(data, pair.serverStreams.get(0).collect().received());
      assertTrue(a.isWritable());
      assertTrue(b.isWritable());
      assertEquals(List.of("writable=false", "writable=true"), sawB, "b heard nothing of the flips in between");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void writesPastTheHighWaterMarkMakeTheStreamUnwritableUntilTheyLeave(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      StreamChannel out = pair.open(Collect.observing());
      out.write(Unpooled.wrappedBuffer(new byte[out.config().getWriteBufferHighWaterMark() + 1]));
      assertFalse(out.isWritable(), "queued, unflushed");
      out.flush();
      assertTrue(out.isWritable(), "handed to the connection");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void aStreamIsUnwritablePastItsHighWaterMarkUntilUnderItsLowOneAndHearsEachChangeOnce(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      StreamChannel out = pair.open(Collect.observing());
      out.config().setWriteBufferWaterMark(new WriteBufferWaterMark(5, 10));
      List<String> heard = new ArrayList<>();
      out.pipeline().addFirst(new ChannelInboundHandlerAdapter() {
        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
          heard.add(out.isWritable() + " " + out.bytesBeforeUnwritable() + " " + out.bytesBeforeWritable());
        }
      });
      assertEquals(11, out.bytesBeforeUnwritable());
      assertEquals(0, out.bytesBeforeWritable());
      out.write(Unpooled.wrappedBuffer(new byte[10]));
      assertTrue(out.isWritable(), "at the high water mark, not past it");
      assertEquals(1, out.bytesBeforeUnwritable());
      out.write(Unpooled.wrappedBuffer(new byte[6]));
      out.write(Unpooled.wrappedBuffer(new byte[5]));
      assertFalse(out.isWritable());
      assertEquals(0, out.bytesBeforeUnwritable());
      assertEquals(21 - 5 + 1, out.bytesBeforeWritable());
      // The writes leave one by one: at 11 and at exactly the low water mark the stream stays unwritable.
      out.flush();
      assertEquals(List.of("false 0 12", "true 11 0"), heard, "unwritable at 16 bytes, writable at 0");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void aStreamUnwritableForTwoReasonsHearsOneChangeEachWay(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      StreamChannel out = pair.open(Collect.observing());
      out.config().setWriteBufferWaterMark(new WriteBufferWaterMark(5, 10));
      List<Boolean> heard = new ArrayList<>();
      out.pipeline().addFirst(new ChannelInboundHandlerAdapter() {
        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
          heard.add(out.isWritable());
        }
      });
      pair.client.unsafe().outboundBuffer().setUserDefinedWritability(1, false);
      pair.client.runPendingTasks();
      out.write(Unpooled.wrappedBuffer(new byte[11])); // and its own queue full
      pair.client.unsafe().outboundBuffer().setUserDefinedWritability(1, true);
      pair.client.runPendingTasks();
      assertFalse(out.isWritable(), "its own queue is still full");
      out.flush();
      assertTrue(out.isWritable());
      assertEquals(List.of(false, true), heard);
    }
  }
}
