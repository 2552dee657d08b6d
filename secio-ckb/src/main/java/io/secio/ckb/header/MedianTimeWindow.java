package io.secio.ckb.header;

import java.util.Arrays;

/**
 * The timestamps of the last 37 blocks of a chain, newest last, and their median as CKB takes it:
 * sort, then the element at index count / 2 (the upper one of an even count; near genesis the count
 * is smaller). A header must be later than the median of its parent and the parent's 36 ancestors.
 *
 * <p>Bounded (37 longs) and not thread-safe.
 */
public final class MedianTimeWindow {
  private final long[] ring = new long[Consensus.MEDIAN_TIME_BLOCK_COUNT];
  private final long[] sorted = new long[Consensus.MEDIAN_TIME_BLOCK_COUNT];
  private int count;
  private int next;

  /** An empty window. */
  public MedianTimeWindow() {}

  /**
   * A window holding {@code timestamps}, oldest first; only the last 37 count.
   *
   * @param timestamps the timestamps of consecutive blocks, oldest first
   * @return the window
   */
  public static MedianTimeWindow of(long... timestamps) {
    MedianTimeWindow window = new MedianTimeWindow();
    for (long t : timestamps) {
      window.push(t);
    }
    return window;
  }

  /**
   * Adds the newest block's timestamp, dropping the oldest beyond 37.
   *
   * @param timestamp milliseconds, a u64
   */
  public void push(long timestamp) {
    ring[next] = timestamp;
    next = (next + 1) % ring.length;
    count = Math.min(count + 1, ring.length);
  }

  /** How many timestamps it holds, at most 37. */
  public int size() {
    return count;
  }

  /**
   * The median of the timestamps held.
   *
   * @return the element at index size / 2 of the sorted timestamps (as u64)
   * @throws IllegalStateException if the window is empty
   */
  public long median() {
    if (count == 0) {
      throw new IllegalStateException("no timestamp to take a median of");
    }
    for (int i = 0; i < count; i++) {
      // Flip the sign bit: signed order of the flipped values is the u64 order.
      sorted[i] = ring[i] ^ Long.MIN_VALUE;
    }
    Arrays.sort(sorted, 0, count);
    return sorted[count >> 1] ^ Long.MIN_VALUE;
  }

  /** A copy of this window, to go on along another branch. */
  public MedianTimeWindow copy() {
    MedianTimeWindow copy = new MedianTimeWindow();
    System.arraycopy(ring, 0, copy.ring, 0, ring.length);
    copy.count = count;
    copy.next = next;
    return copy;
  }
}
