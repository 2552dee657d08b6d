package io.secio.streams.yamux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.ChannelOption;
import io.netty.channel.embedded.EmbeddedChannel;
import io.secio.streams.CollectedStream;
import io.secio.streams.MemoryBudget;
import io.secio.streams.StreamChannel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * yamux's grants frame by frame ({@code docs/STREAMS.md} §4.3): tentacle's rule, {@code delta = target
 * - credit} sent once it reaches the threshold; the target cut to what the session window and the
 * node's budget leave free; streams cut short wait as starved and grow as credit frees elsewhere.
 * Every number below follows from that rule with tentacle's 1 MiB max window (four 256 KiB shares)
 * and its threshold of half of it. What the credit does to the streams is {@code CreditTest}'s.
 */
class GrantTest {

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

  /** tentacle's profile with a session window of {@code shares} 256 KiB shares. */
  private static YamuxConfig sessionWindowOf(int shares) {
    return YamuxConfig.tentacle().toBuilder().sessionWindow(shares * SHARE).build();
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
    try (Receiver r = new Receiver(sessionWindowOf(3))) {
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
    try (Receiver r = new Receiver(sessionWindowOf(3))) {
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
    try (Receiver r = new Receiver(sessionWindowOf(2))) {
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

  @Test
  void aStreamAloneInASessionWindowOfItsMaxWindowGetsBackAllItReads() {
    try (Receiver r = new Receiver(sessionWindowOf(4))) {
      r.channel.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_SYN, 1, 0));
      assertEquals(List.of(update(2, 1, 3 * SHARE)), r.sent());
      // Its credit, 2 shares, has 1 share over its own; that excess counts as its, not as taken.
      r.data(1, 2 * SHARE);
      r.read(1);
      assertEquals(List.of(update(0, 1, 2 * SHARE)), r.sent());
    }
  }

  @Test
  void aStreamThatReadsFreesCreditForOneThatStarved() {
    try (Receiver r = new Receiver(sessionWindowOf(4))) {
      r.channel.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_SYN, 1, 0));
      r.channel.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_SYN, 3, 0));
      assertEquals(List.of(update(2, 1, 3 * SHARE), update(2, 3, 0)), r.sent(), "stream 3 starts starved");
      // Stream 1 reads 2 shares: 1 share frees. Its own grant, 1 share to 3, is under the cut
      // threshold; stream 3, starved, may grow by that share to 2, which is at its threshold.
      r.data(1, 2 * SHARE);
      r.read(1);
      assertEquals(List.of(update(0, 3, SHARE)), r.sent());
    }
  }

  @Test
  void aStreamUnderTheThresholdWaitsAsStarvedAndGrowsWhenAnotherCloses() {
    try (Receiver r = new Receiver(sessionWindowOf(4))) {
      r.channel.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_SYN, 1, 0));
      r.data(1, SHARE);
      r.read(1);
      assertEquals(List.of(update(2, 1, 3 * SHARE)), r.sent(), "1 share read: under the threshold, nothing");
      r.channel.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_SYN, 3, 0));
      assertEquals(List.of(update(2, 3, 0)), r.sent(), "no room over stream 3's own share");
      // Stream 1 reads 1 more share: its grant, 1 share to 3, is under the cut threshold, so it
      // waits; stream 3 may grow by the share that freed, which is at its threshold.
      r.data(1, SHARE);
      r.read(1);
      assertEquals(List.of(update(0, 3, SHARE)), r.sent());
      // Stream 3 closes: stream 1, still waiting, may grow to its max window, 2 shares more.
      r.stream(3).close();
      assertEquals(List.of(update(4, 3, 0), update(0, 1, 2 * SHARE)), r.sent());
    }
  }

  @Test
  void theBudgetHoldsExactlyTheSharesAndTheCreditOverThem() {
    MemoryBudget roomy = MemoryBudget.of(100 * SHARE, 100 * SHARE);
    try (Receiver r = new Receiver(YamuxConfig.tentacle().toBuilder().budget(roomy).build())) {
      r.channel.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_SYN, 1, 0));
      assertEquals(4 * SHARE, roomy.used(), "its share and 3 shares of credit over it");
      r.data(1, SHARE);
      r.read(1);
      assertEquals(List.of(update(2, 1, 3 * SHARE)), r.sent(), "under the threshold: no grant");
      assertEquals(3 * SHARE, roomy.used(), "the share read and not granted again is back");
      r.data(1, SHARE);
      r.read(1);
      assertEquals(List.of(update(0, 1, 2 * SHARE)), r.sent());
      assertEquals(4 * SHARE, roomy.used(), "granted again: taken again");
      r.data(1, 3 * SHARE);
      r.read(1);
      r.data(1, SHARE);
      assertEquals(4 * SHARE, roomy.used(), "bytes held unread count as credit");
    }
    assertEquals(0, roomy.used());
  }

  @Test
  void aStreamOpensWhenTheBudgetHasExactlyOneShareLeft() {
    MemoryBudget fiveShares = MemoryBudget.of(5 * SHARE, 5 * SHARE);
    try (Receiver r = new Receiver(YamuxConfig.tentacle().toBuilder().budget(fiveShares).build())) {
      r.channel.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_SYN, 1, 0));
      r.channel.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_SYN, 3, 0));
      assertEquals(List.of(update(2, 1, 3 * SHARE), update(2, 3, 0)), r.sent(), "an ACK, not a refusal");
      assertEquals(5 * SHARE, fiveShares.used());
    }
  }

  @Test
  void aStreamWhosePeerEndedGrantsNothingMore() {
    try (Receiver r = new Receiver(YamuxConfig.tentacle())) {
      r.channel.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_SYN, 1, 0));
      r.sent();
      r.stream(1).config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
      r.channel.writeInbound(Wire.data(YamuxFrames.FLAG_FIN, 1, new byte[2 * SHARE]));
      r.read(1);
      assertEquals(List.of(), r.sent(), "the peer may send nothing more: no credit for it");
    }
  }
}
