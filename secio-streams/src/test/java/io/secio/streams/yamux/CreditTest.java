package io.secio.streams.yamux;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelOption;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.Future;
import io.secio.streams.CollectedStream;
import io.secio.streams.MemoryBudget;
import io.secio.streams.Muxer;
import io.secio.streams.SessionPair;
import io.secio.streams.StreamChannel;
import io.secio.streams.StreamChannelBootstrap;
import io.secio.testsupport.Collect;
import java.util.ArrayList;
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

  // ---- the grants, frame by frame ----

  private static final int SHARE = 256 * 1024;

  /** A listener fed by hand, whose streams read only when told; {@link #sent} is what it wrote since. */
  private static final class Receiver implements AutoCloseable {
    final List<CollectedStream> streams = new ArrayList<>();
    final EmbeddedChannel channel;

    Receiver(YamuxConfig config) {
      channel = new EmbeddedChannel(YamuxHandler.server(config, CollectedStream.into(streams,
          stream -> stream.config().setAutoRead(false))));
    }

    StreamChannel stream(long id) {
      return streams.stream().map(CollectedStream::stream).filter(s -> s.streamId() == id).findFirst().orElseThrow();
    }

    /** The stream's pipeline reads what waits, then asks for more: the credit of what it read comes back. */
    void read(long id) {
      stream(id).read();
      stream(id).read();
    }

    void data(long id, int bytes) {
      channel.writeInbound(Wire.data(0, id, new byte[bytes]));
    }

    /** The frames written since the last call, as "WindowUpdate flags=F stream=S length=L". */
    List<String> sent() {
      return Wire.frames(channel).stream().map(Wire.Frame::toString).toList();
    }

    @Override
    public void close() {
      channel.finishAndReleaseAll();
    }
  }

  private static String update(int flags, long id, long delta) {
    return "WindowUpdate flags=" + flags + " stream=" + id + " length=" + delta;
  }

  @Test
  void aGrantGoesOutOnceItReachesTheThresholdAndNotBefore() {
    try (Receiver r = new Receiver(YamuxConfig.tentacle())) {
      r.channel.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_SYN, 1, 0));
      assertEquals(List.of(update(2, 1, 3 * SHARE)), r.sent(), "the whole 1 MiB window at once");
      r.data(1, 2 * SHARE - 1);
      r.read(1);
      assertEquals(List.of(), r.sent(), "one byte short of half the window");
      r.data(1, 1);
      r.read(1);
      assertEquals(List.of(update(0, 1, 2 * SHARE)), r.sent(), "half the window, the threshold: all of it back");
    }
  }

  @Test
  void aShortSessionWindowStarvesStreamsAndFeedsThemAsCreditFrees() {
    // Room for three shares. Every number below is tentacle's rule, delta = target - credit, with the
    // target cut to what the session window leaves free and the threshold cut in proportion.
    YamuxConfig tight = YamuxConfig.tentacle().toBuilder().sessionWindow(3 * SHARE).build();
    try (Receiver r = new Receiver(tight)) {
      r.channel.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_SYN, 1, 0));
      r.channel.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_SYN, 3, 0));
      assertEquals(List.of(update(2, 1, 2 * SHARE), update(2, 3, 0)), r.sent(),
          "stream 1 takes the two free shares; stream 3 only its own");
      // Stream 3 reads its first share: free is -1 share, so its target is its own share: all back.
      r.data(3, SHARE);
      r.read(3);
      assertEquals(List.of(update(0, 3, SHARE)), r.sent());
      // Stream 1 reads its 3 shares: its excess frees, 1 share is free: target 2 shares, all granted;
      // then the starved streams look again, and neither gets more.
      r.data(1, 3 * SHARE);
      r.read(1);
      assertEquals(List.of(update(0, 1, 2 * SHARE)), r.sent());
      // Stream 3 closes: stream 1 could grow by one share to 3, under the cut threshold: nothing yet.
      r.stream(3).close();
      assertEquals(List.of(update(4, 3, 0)), r.sent(), "only the FIN");
      // Stream 1 reads its 2 shares: alone now, 2 shares free: target 3 shares, all of them back.
      r.data(1, 2 * SHARE);
      r.read(1);
      assertEquals(List.of(update(0, 1, 3 * SHARE)), r.sent());
    }
  }

  @Test
  void bytesAStreamHoldsUnreadCountAsCreditItHas() {
    YamuxConfig tight = YamuxConfig.tentacle().toBuilder().sessionWindow(3 * SHARE).build();
    try (Receiver r = new Receiver(tight)) {
      r.channel.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_SYN, 1, 0));
      r.channel.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_SYN, 3, 0));
      r.sent();
      r.data(3, SHARE); // held, unread: stream 3 still has its whole share
      r.data(1, 3 * SHARE);
      r.read(1);
      assertEquals(List.of(update(0, 1, 2 * SHARE)), r.sent(), "stream 3, starved, gets nothing: it holds its share");
    }
  }

  @Test
  void aStarvedStreamThatClosedIsPassedOverForTheNext() {
    YamuxConfig twoShares = YamuxConfig.tentacle().toBuilder().sessionWindow(2 * SHARE).build();
    try (Receiver r = new Receiver(twoShares)) {
      r.channel.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_SYN, 1, 0));
      r.channel.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_SYN, 3, 0));
      assertEquals(List.of(update(2, 1, SHARE), update(2, 3, 0)), r.sent());
      r.stream(1).close(); // stream 1 held 2 shares; stream 3, starved, may grow to 2 shares now
      assertEquals(List.of(update(4, 1, 0), update(0, 3, SHARE)), r.sent());
      r.channel.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_SYN, 5, 0));
      assertEquals(List.of(update(2, 5, 0)), r.sent());
      r.stream(5).close();
      r.stream(3).close();
      assertEquals(List.of(update(4, 5, 0), update(4, 3, 0)), r.sent(), "nothing granted to a closed stream");
    }
  }

  @Test
  void aStreamIsUnwritableWhileItsCreditIsUsedUpAndTheWindowMayReachTwoToThe32MinusOne() {
    try (SessionPair pair = new SessionPair(Muxer.yamux(YamuxConfig.tentacle()))) {
      StreamChannel out = pair.open(Collect.observing());
      pair.client.readOutbound();
      out.writeAndFlush(Unpooled.wrappedBuffer(new byte[4 * SHARE])); // exactly the 1 MiB granted
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

  @Test
  void listenersSharingABudgetGrantOnlyWhatItHoldsAndOpenAStreamOnlyWhenItsShareFits() {
    MemoryBudget budget = MemoryBudget.of(6 * SHARE, 6 * SHARE);
    YamuxConfig config = YamuxConfig.tentacle().toBuilder().budget(budget).build();
    try (Receiver a = new Receiver(config); Receiver b = new Receiver(config)) {
      a.channel.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_SYN, 1, 0));
      assertEquals(List.of(update(2, 1, 3 * SHARE)), a.sent(), "the whole window: 4 of the 6 shares");
      b.channel.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_SYN, 1, 0));
      assertEquals(List.of(update(2, 1, SHARE)), b.sent(), "its share and the one share left");
      assertEquals(6 * SHARE, budget.used());
      b.channel.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_SYN, 3, 0));
      assertEquals(List.of(update(2 | 8, 3, 0)), b.sent(), "no share left for a stream: refused");
      a.stream(1).close();
      assertEquals(List.of(update(4, 1, 0)), a.sent());
      assertEquals(2 * SHARE, budget.used(), "the other listener's stream gave its 4 shares back");
      // b's stream reads its 2 shares: its whole window is free now, and granted.
      b.data(1, 2 * SHARE);
      b.read(1);
      assertEquals(List.of(update(0, 1, 4 * SHARE)), b.sent());
      b.channel.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_SYN, 5, 0));
      assertEquals(List.of(update(2, 5, SHARE)), b.sent(), "a share fits again, and one more");
      assertEquals(6 * SHARE, budget.used());
      assertTrue(a.channel.isActive() && b.channel.isActive());
    }
    assertEquals(0, budget.used(), "the sessions ended: everything went back");
  }

  @Test
  void withoutABudgetTheGrantsAreTheSame() {
    MemoryBudget roomy = MemoryBudget.of(1L << 40, 1L << 40);
    try (Receiver plain = new Receiver(YamuxConfig.tentacle());
        Receiver budgeted = new Receiver(YamuxConfig.tentacle().toBuilder().budget(roomy).build())) {
      for (Receiver r : List.of(plain, budgeted)) {
        r.channel.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_SYN, 1, 0));
        r.data(1, 3 * SHARE);
        r.read(1);
        r.stream(1).close();
      }
      assertEquals(plain.sent(), budgeted.sent());
      assertEquals(0, roomy.used());
    }
  }
}
