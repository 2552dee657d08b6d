package io.secio.examples.cli;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A one-line progress bar redrawn in place ({@code \r}) on a terminal, for transfers that take long
 * enough to need one: nothing is drawn during the first second. {@link #close()} erases it. Runs on
 * its own daemon thread; one bar per transfer.
 */
final class ProgressBar implements AutoCloseable {
  private static final long FIRST_DRAW_AFTER_MILLIS = 1000;
  private static final long REDRAW_EVERY_MILLIS = 200;
  private static final int WIDTH = 30;

  private final PrintStream terminal;
  private final long total;
  private final LongSupplier done;
  private final long startNanos = System.nanoTime();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "progress");
    t.setDaemon(true);
    return t;
  });
  private boolean drawn;
  private boolean closed;

  /** Draws on {@code terminal} the share {@code done} of {@code total}. */
  ProgressBar(PrintStream terminal, long total, LongSupplier done) {
    this.terminal = terminal;
    this.total = total;
    this.done = done;
    timer.scheduleAtFixedRate(this::draw, FIRST_DRAW_AFTER_MILLIS, REDRAW_EVERY_MILLIS, TimeUnit.MILLISECONDS);
  }

  private synchronized void draw() {
    if (closed) {
      return;
    }
    long now = done.getAsLong();
    terminal.print("\r" + line(now, total, System.nanoTime() - startNanos));
    terminal.flush();
    drawn = true;
  }

  /** {@code [=========>          ]  45%  120.3 MiB/s}. */
  static String line(long done, long total, long nanos) {
    int filled = total == 0 ? WIDTH : (int) (WIDTH * (double) done / total);
    StringBuilder bar = new StringBuilder("[");
    for (int i = 0; i < WIDTH; i++) {
      bar.append(i < filled ? '=' : i == filled ? '>' : ' ');
    }
    int percent = total == 0 ? 100 : (int) (100.0 * done / total);
    return bar.append(String.format(Locale.ROOT, "] %3d%%  %s", percent, Report.mibPerSecond(done, nanos)))
        .toString();
  }

  @Override
  public synchronized void close() {
    closed = true;
    timer.shutdownNow();
    if (drawn) {
      terminal.print("\r" + " ".repeat(WIDTH + 24) + "\r");
      terminal.flush();
    }
  }
}
