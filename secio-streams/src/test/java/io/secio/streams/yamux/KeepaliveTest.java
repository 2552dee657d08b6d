package io.secio.streams.yamux;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.channel.embedded.EmbeddedChannel;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link Keepalive}'s arithmetic in ticks ({@code docs/STREAMS.md} §4.4): pings count from 1, a tick
 * finding a ping unanswered for longer than the timeout drops the session, an answer settles its
 * ping and every older one, and an unknown answer nothing; its timer ticks every interval until
 * stopped, and never without an interval.
 */
class KeepaliveTest {
  private static final Duration THIRTY_SECONDS = Duration.ofSeconds(30);

  @Test
  void tentaclesValuesPingAtThirtyAndSixtySecondsAndDropAtNinety() {
    Keepalive k = new Keepalive(THIRTY_SECONDS, THIRTY_SECONDS);
    assertEquals(1, k.tick());
    assertEquals(2, k.tick());
    assertEquals(-1, k.tick());
  }

  @Test
  void aTimeoutShorterThanTheIntervalDropsAtTheTickAfterAnUnansweredPing() {
    Keepalive k = new Keepalive(THIRTY_SECONDS, Duration.ofSeconds(10));
    assertEquals(1, k.tick());
    assertEquals(-1, k.tick());
  }

  @Test
  void anAnswerSettlesItsPingAndEveryOlderOneAndAnUnknownOneNothing() {
    Keepalive k = new Keepalive(THIRTY_SECONDS, Duration.ofSeconds(75));
    assertEquals(1, k.tick());
    assertEquals(2, k.tick());
    assertEquals(3, k.tick());
    assertEquals(3, k.unansweredCount());
    k.answered(99);
    assertEquals(3, k.unansweredCount());
    k.answered(2);
    assertEquals(1, k.unansweredCount(), "ping 3 still waits");
    assertEquals(4, k.tick());
    assertEquals(5, k.tick());
    assertEquals(-1, k.tick(), "ping 3 sent at tick 3, unanswered for 90 s at tick 6");
    k.answered(5);
    assertEquals(0, k.unansweredCount());
  }

  @Test
  void itsTimerTicksEveryIntervalUntilStopped() {
    EmbeddedChannel ch = new EmbeddedChannel();
    AtomicInteger ticks = new AtomicInteger();
    Keepalive k = new Keepalive(THIRTY_SECONDS, THIRTY_SECONDS);
    k.start(ch.eventLoop(), ticks::incrementAndGet);
    k.start(ch.eventLoop(), ticks::incrementAndGet); // once only
    ch.advanceTimeBy(29, TimeUnit.SECONDS);
    ch.runScheduledPendingTasks();
    assertEquals(0, ticks.get());
    ch.advanceTimeBy(31, TimeUnit.SECONDS);
    ch.runScheduledPendingTasks();
    assertEquals(2, ticks.get());
    k.stop();
    ch.advanceTimeBy(60, TimeUnit.SECONDS);
    ch.runScheduledPendingTasks();
    assertEquals(2, ticks.get());
    k.start(ch.eventLoop(), ticks::incrementAndGet);
    ch.advanceTimeBy(60, TimeUnit.SECONDS);
    ch.runScheduledPendingTasks();
    assertEquals(2, ticks.get(), "not after a stop");
    ch.finishAndReleaseAll();
  }

  @Test
  void withoutAnIntervalThereIsNoTimer() {
    EmbeddedChannel ch = new EmbeddedChannel();
    AtomicInteger ticks = new AtomicInteger();
    new Keepalive(null, THIRTY_SECONDS).start(ch.eventLoop(), ticks::incrementAndGet);
    ch.advanceTimeBy(1, TimeUnit.HOURS);
    ch.runScheduledPendingTasks();
    assertEquals(0, ticks.get());
    ch.finishAndReleaseAll();
  }
}
