package io.secio.streams.yamux;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelOption;
import io.netty.util.concurrent.Future;
import io.secio.streams.CollectedStream;
import io.secio.streams.Muxer;
import io.secio.streams.SessionPair;
import io.secio.streams.StreamChannel;
import io.secio.streams.StreamChannelBootstrap;
import io.secio.testsupport.Collect;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * yamux's credit ({@code docs/STREAMS.md} §3, §4.3): credit follows what a stream's pipeline read, a
 * stream is unwritable while it has none, the session window bounds what all streams hold together,
 * and opens beyond the ACK backlog wait. The backpressure every muxer shares is {@code
 * io.secio.streams.FlowControlTest}'s.
 */
class CreditTest {
  private static final int MIB = 1024 * 1024;

  private static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  /** The server's streams start with auto-read off. */
  private static SessionPair noAutoRead() {
    return new SessionPair(Muxer.yamux(YamuxConfig.tentacle()), ch -> ch.config().setAutoRead(false));
  }

  @Test
  void aStreamThatDoesNotReadGrantsNoCreditAndItsPeerBecomesUnwritable() {
    try (SessionPair pair = noAutoRead()) {
      StreamChannel out = pair.open(Collect.observing());
      CollectedStream slow = pair.serverStreams.get(0);
      byte[] data = random(3 * MIB, 1);
      out.writeAndFlush(Unpooled.wrappedBuffer(data));
      pair.pump();
      assertEquals(0, slow.collect().received().length, "auto-read off and no read(): nothing delivered");
      assertFalse(out.isWritable(), "1 MiB of credit used, 2 MiB waiting");

      // Each read() takes one chunk; credit comes back as they are read, until every byte is there.
      for (int reads = 0; slow.collect().received().length < data.length && reads < 10_000; reads++) {
        slow.stream().read();
        pair.pump();
      }
      assertArrayEquals(data, slow.collect().received());
      slow.stream().read(); // asking for more gives back the credit of the last bytes read
      pair.pump();
      assertTrue(out.isWritable());
    }
  }

  @Test
  void creditReturnsOnlyAsFastAsThePipelineReads() {
    try (SessionPair pair = noAutoRead()) {
      StreamChannel out = pair.open(Collect.observing());
      CollectedStream slow = pair.serverStreams.get(0);
      out.writeAndFlush(Unpooled.wrappedBuffer(new byte[2 * MIB]));
      pair.pump();
      List<Wire.Frame> updates = Wire.frames(pair.server);
      assertTrue(updates.isEmpty(), "no WindowUpdate while nothing was read: " + updates);
      slow.stream().read(); // the whole 1 MiB frame goes up at once
      slow.stream().read(); // asking again gives its credit back
      List<Wire.Frame> after = Wire.frames(pair.server);
      assertEquals(1, after.size());
      assertEquals(MIB, after.get(0).length(), "the whole window back once read");
    }
  }

  @Test
  void theSessionWindowBoundsWhatAllStreamsHold() {
    // Room for three 256 KiB shares: the first stream grows to 768 KiB, the next two keep their
    // shares, a fourth is refused; when the first closes, what it held goes to those waiting.
    YamuxConfig tight = YamuxConfig.tentacle().toBuilder().sessionWindow(3 * 256 * 1024).build();
    try (SessionPair pair = new SessionPair(Muxer.yamux(YamuxConfig.tentacle(), tight))) {
      for (int id = 1; id <= 7; id += 2) {
        pair.server.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_SYN, id, 0));
      }
      List<Wire.Frame> acks = Wire.frames(pair.server);
      assertEquals(List.of(512L * 1024, 0L, 0L, 0L), acks.stream().map(Wire.Frame::length).toList());
      assertEquals(YamuxFrames.FLAG_ACK, acks.get(2).flags());
      assertEquals(YamuxFrames.FLAG_ACK | YamuxFrames.FLAG_RST, acks.get(3).flags(), "no room for a fourth share");

      pair.serverStreams.get(0).stream().close();
      List<Wire.Frame> after = Wire.frames(pair.server);
      assertEquals(2, after.size(), "FIN, then one grant: " + after);
      assertEquals(YamuxFrames.FLAG_FIN, after.get(0).flags());
      assertEquals(3, after.get(1).streamId());
      assertEquals(256 * 1024, after.get(1).length(), "stream 3 grows into what stream 1 left");
    }
  }

  @Test
  void opensBeyondTheAckBacklogWaitForAnAck() {
    YamuxConfig backlogTwo = YamuxConfig.tentacle().toBuilder().ackBacklog(2).build();
    try (SessionPair pair = new SessionPair(Muxer.yamux(backlogTwo))) {
      Future<StreamChannel> first = new StreamChannelBootstrap(pair.client).handler(Collect.observing()).open();
      Future<StreamChannel> second = new StreamChannelBootstrap(pair.client).handler(Collect.observing()).open();
      Future<StreamChannel> third = new StreamChannelBootstrap(pair.client)
          .option(ChannelOption.AUTO_READ, true).handler(Collect.observing()).open();
      pair.client.runPendingTasks();
      assertTrue(first.isSuccess() && second.isSuccess());
      assertFalse(third.isDone(), "waits: two SYNs are un-ACKed");
      assertEquals(2, Wire.frames(pair.client).size());
      pair.client.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_ACK, 1, 0));
      assertTrue(third.isSuccess());
      assertEquals(5, third.getNow().streamId());
    }
  }

  @Test
  void opensStillWaitingForAnAckFailWhenTheSessionEnds() {
    YamuxConfig backlogOne = YamuxConfig.tentacle().toBuilder().ackBacklog(1).build();
    try (SessionPair pair = new SessionPair(Muxer.yamux(backlogOne))) {
      Future<StreamChannel> first = new StreamChannelBootstrap(pair.client).handler(Collect.observing()).open();
      Future<StreamChannel> waiting = new StreamChannelBootstrap(pair.client).handler(Collect.observing()).open();
      pair.client.runPendingTasks();
      assertTrue(first.isSuccess());
      assertFalse(waiting.isDone());
      pair.client.pipeline().fireChannelInactive();
      YamuxException e = assertInstanceOf(YamuxException.class, waiting.cause());
      assertEquals("SESSION_CLOSED: the session ended before the stream could open", e.getMessage());
    }
  }

  @Test
  void aStreamClosedBeforeItsAckMakesRoomForAnOpenThatWaited() {
    YamuxConfig backlogOne = YamuxConfig.tentacle().toBuilder().ackBacklog(1).build();
    try (SessionPair pair = new SessionPair(Muxer.yamux(backlogOne))) {
      Future<StreamChannel> first = new StreamChannelBootstrap(pair.client).handler(Collect.observing()).open();
      Future<StreamChannel> waiting = new StreamChannelBootstrap(pair.client).handler(Collect.observing()).open();
      pair.client.runPendingTasks();
      first.getNow().close();
      assertTrue(waiting.isSuccess());
      assertEquals(3, waiting.getNow().streamId());
      Future<StreamChannel> third = new StreamChannelBootstrap(pair.client).handler(Collect.observing()).open();
      pair.client.runPendingTasks();
      assertFalse(third.isDone(), "stream 3 awaits its ACK");
      pair.client.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_ACK, 3, 0));
      pair.client.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_ACK, 3, 0)); // a repeated ACK frees nothing more
      assertTrue(third.isSuccess());
      Future<StreamChannel> fourth = new StreamChannelBootstrap(pair.client).handler(Collect.observing()).open();
      pair.client.runPendingTasks();
      assertFalse(fourth.isDone(), "stream 5 awaits its ACK");
    }
  }

  @Test
  void noStreamOpensOverTheStreamCapOrTheSessionWindow() {
    YamuxConfig capTwo = YamuxConfig.tentacle().toBuilder().maxStreams(2).build();
    try (SessionPair pair = new SessionPair(Muxer.yamux(capTwo))) {
      pair.open(Collect.observing());
      pair.open(Collect.observing());
      Future<StreamChannel> third = new StreamChannelBootstrap(pair.client).handler(Collect.observing()).open();
      pair.client.runPendingTasks();
      assertEquals("STREAM_LIMIT: 2 streams open", third.cause().getMessage());
    }
    YamuxConfig twoShares = YamuxConfig.tentacle().toBuilder().sessionWindow(2 * 256 * 1024).build();
    try (SessionPair pair = new SessionPair(Muxer.yamux(twoShares))) {
      pair.open(Collect.observing());
      pair.open(Collect.observing());
      Future<StreamChannel> third = new StreamChannelBootstrap(pair.client).handler(Collect.observing()).open();
      pair.client.runPendingTasks();
      assertEquals("STREAM_LIMIT: 2 streams open", third.cause().getMessage());
    }
  }

  @Test
  void aStreamIsUnwritableWhileItsCreditIsUsedUpAndTheWindowMayReachTwoToThe32MinusOne() {
    try (SessionPair pair = new SessionPair(Muxer.yamux(YamuxConfig.tentacle()))) {
      StreamChannel out = pair.open(Collect.observing());
      pair.client.readOutbound();
      out.writeAndFlush(Unpooled.wrappedBuffer(new byte[MIB])); // exactly the 1 MiB granted
      Wire.frames(pair.client);
      assertFalse(out.isWritable(), "nothing waits in it, but it may send nothing");
      pair.client.writeInbound(Wire.windowUpdate(0, 1, 0));
      assertFalse(out.isWritable(), "a grant of 0 is no credit");
      pair.client.writeInbound(Wire.windowUpdate(0, 1, YamuxFrames.MAX_U32));
      assertTrue(out.isWritable());
      assertTrue(pair.client.isActive(), "2^32 - 1 is a window");
      YamuxException e = assertThrows(YamuxException.class, () -> pair.client.writeInbound(Wire.windowUpdate(0, 1, 1)));
      assertEquals(YamuxException.Reason.WINDOW_OVERFLOW, e.reason());
    }
  }
}
