package io.secio.ckb.chain;

import io.secio.ckb.header.Byte32;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * A {@code GetHeaders} block locator built as a CKB node builds one ({@code sync/src/types}
 * {@code get_locator}): from the start block down, one block at a time for 10 entries, then with a
 * doubling step; below block 8192·2 it also keeps halving the height while under 52 entries; the
 * genesis hash always last (a node bans for 600 s otherwise). Blocks under the follower's start (a
 * checkpoint) are unknown: the locator jumps from the start block to genesis. At most 101 hashes.
 */
final class Locator {
  /** A node refuses a longer locator as malformed. */
  static final int MAX_HASHES = 101;
  private static final long LOW_HEIGHT = 8192;
  private static final int LOW_HEIGHT_ENTRIES = 52;

  private Locator() {}

  /**
   * The locator from block {@code start} of a chain.
   *
   * @param start the number of the block to start from
   * @param ancestorAt the chain's block hash at a number, for numbers from {@code lowest} to {@code start}
   * @param lowest the lowest block held (the follower's start)
   * @param genesis the genesis hash
   * @return the hashes, newest first, genesis last
   */
  static List<Byte32> build(long start, LongFunction<Byte32> ancestorAt, long lowest, Byte32 genesis) {
    List<Byte32> locator = new ArrayList<>();
    long step = 1;
    long index = start;
    while (true) {
      locator.add(ancestorAt.apply(index));
      if (locator.size() >= 10) {
        step <<= 1;
      }
      if (index / 2 < step) { // index < 2 * step, without overflow
        if (locator.size() < LOW_HEIGHT_ENTRIES && index > LOW_HEIGHT && index / 2 >= lowest) {
          index >>= 1;
          continue;
        }
        break;
      }
      if (index - step < lowest) {
        if (index != lowest) {
          locator.add(ancestorAt.apply(lowest));
        }
        break;
      }
      index -= step;
    }
    if (!locator.get(locator.size() - 1).equals(genesis)) {
      locator.add(genesis);
    }
    return locator;
  }
}
