package io.secio.ckb.chain;

import io.secio.ckb.header.Byte32;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * The hashes of the main chain's last {@link #BLOCKS} blocks, by hash: how a peer's locator (hashes
 * without numbers) is matched to our chain. The store keeps no index by hash (see
 * {@link io.secio.ckb.store.HeaderStore}), so a peer whose locator names none of these blocks, nor
 * our start, is answered {@code InIBD}.
 *
 * <p>Bounded: about 150 bytes per block. Not thread-safe.
 */
final class RecentMainChain {
  /** About two days of blocks. */
  static final int BLOCKS = 20_000;

  private final Map<Byte32, Long> numbers = new HashMap<>();
  private long lowest;
  private long highest = -1;

  /** Forgets everything and reads the main chain from {@code tip} down (at most {@link #BLOCKS}, not below {@code floor}). */
  void reload(long tip, long floor, LongFunction<Byte32> mainHash) {
    numbers.clear();
    highest = tip;
    lowest = Math.max(floor, tip - BLOCKS + 1);
    for (long n = lowest; n <= tip; n++) {
      numbers.put(mainHash.apply(n), n);
    }
  }

  /** The main chain now ends at {@code tip}; blocks from {@code changedFrom} up may have changed. */
  void update(long changedFrom, long tip, long floor, LongFunction<Byte32> mainHash) {
    if (changedFrom <= lowest || tip - BLOCKS + 1 > highest) {
      reload(tip, floor, mainHash);
      return;
    }
    numbers.values().removeIf(n -> n >= changedFrom);
    for (long n = changedFrom; n <= tip; n++) {
      numbers.put(mainHash.apply(n), n);
    }
    highest = tip;
    long newLowest = Math.max(floor, tip - BLOCKS + 1);
    numbers.values().removeIf(n -> n < newLowest);
    lowest = newLowest;
  }

  /** The number of the main-chain block {@code hash}, if it is one of the recent ones. */
  Long number(Byte32 hash) {
    return numbers.get(hash);
  }
}
