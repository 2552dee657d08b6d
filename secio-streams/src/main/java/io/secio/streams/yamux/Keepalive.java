package io.secio.streams.yamux;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * Keepalive pings as tokio-yamux sends them ({@code docs/STREAMS.md} §4.4): at every tick a Ping SYN
 * whose opaque value is a per-session counter from 1, unless a ping sent earlier is still unanswered
 * and older than the ping timeout, which drops the session. Ages are counted in ticks, not read from a
 * clock, so a late timer cannot turn 30 s into 30.001 s: with tentacle's 30 s interval and timeout,
 * pings go at 30 s and 60 s and an unanswered session drops at 90 s, as the recordings show. An
 * answer (Ping ACK) settles its ping and every older one. It owns its timer: {@link #start} and
 * {@link #stop}.
 *
 * <p>Not thread-safe: the connection's event loop.
 */
final class Keepalive {
  private final long intervalNanos;
  private final long timeoutNanos;
  /** Unanswered pings, oldest first: opaque value in the high 32 bits, tick sent in the low 32. */
  private final ArrayDeque<Long> unanswered = new ArrayDeque<>(4);
  private long ticks;
  private long counter;
  private ScheduledFuture<?> timer;
  private boolean stopped;

  /** Keepalive every {@code interval}, or none when it is {@code null}. */
  Keepalive(Duration interval, Duration timeout) {
    intervalNanos = interval == null ? 0 : interval.toNanos();
    timeoutNanos = timeout.toNanos();
  }

  /** Runs {@code tick} every interval on {@code executor}, from one interval on; once, and never after {@link #stop}. */
  void start(EventExecutor executor, Runnable tick) {
    if (intervalNanos > 0 && timer == null && !stopped) {
      timer = executor.scheduleAtFixedRate(tick, intervalNanos, intervalNanos, TimeUnit.NANOSECONDS);
    }
  }

  /** No tick any more. */
  void stop() {
    stopped = true;
    if (timer != null) {
      timer.cancel(false);
    }
  }

  /** A tick: the opaque value of the ping to send now, or -1 when the session must drop. */
  long tick() {
    ticks++;
    Long oldest = unanswered.peekFirst();
    if (oldest != null && (ticks - (oldest & 0xFFFF_FFFFL)) * intervalNanos > timeoutNanos) {
      return -1;
    }
    counter = (counter + 1) & YamuxFrames.MAX_U32;
    unanswered.addLast(counter << 32 | (ticks & 0xFFFF_FFFFL));
    return counter;
  }

  /** The peer answered the ping with {@code opaque}; an unknown value changes nothing. */
  void answered(long opaque) {
    boolean known = false;
    for (Long ping : unanswered) {
      if (ping >>> 32 == opaque) {
        known = true;
        break;
      }
    }
    while (known) {
      known = unanswered.pollFirst() >>> 32 != opaque;
    }
  }

  /** How many pings wait for an answer. */
  int unansweredCount() {
    return unanswered.size();
  }
}
