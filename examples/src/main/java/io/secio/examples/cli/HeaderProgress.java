package io.secio.examples.cli;

import io.secio.ckb.chain.Tip;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * A header sync's progress on a terminal, one line redrawn in place ({@code \r}) as batches are
 * stored, at most every 200 ms: {@code headers 124000  8300 headers/s  tip 124000 0x1a2b3c4d…}.
 * {@link #close()} erases it. Without a terminal it draws nothing. Not thread-safe: one caller.
 */
final class HeaderProgress implements AutoCloseable {
  private static final long REDRAW_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

  private final PrintStream terminal;
  private final long startNanos = System.nanoTime();
  private long drawnAt;
  private int width;

  /** Draws on {@code terminal}; on nothing if it is null. */
  HeaderProgress(PrintStream terminal) {
    this.terminal = terminal;
  }

  /** A batch was stored: {@code verified} headers so far, the main chain's {@code tip}. */
  void update(long verified, Tip tip) {
    long now = System.nanoTime();
    if (terminal == null || (width > 0 && now - drawnAt < REDRAW_EVERY_NANOS)) {
      return;
    }
    String line = line(verified, tip, now - startNanos);
    terminal.print("\r" + line + " ".repeat(Math.max(0, width - line.length())));
    terminal.flush();
    drawnAt = now;
    width = Math.max(width, line.length());
  }

  /** {@code headers 124000  8300 headers/s  tip 124000 0x1a2b3c4d…}. */
  static String line(long verified, Tip tip, long nanos) {
    long rate = nanos <= 0 ? 0 : (long) (verified * 1e9 / nanos);
    return String.format(Locale.ROOT, "headers %d  %d headers/s  tip %s %s…", verified, rate,
        Long.toUnsignedString(tip.number()), tip.hash().toString().substring(0, 10));
  }

  /** Erases the line, if one was drawn; a second call does nothing. */
  @Override
  public void close() {
    if (terminal != null && width > 0) {
      terminal.print("\r" + " ".repeat(width) + "\r");
      terminal.flush();
      width = 0;
    }
  }
}
