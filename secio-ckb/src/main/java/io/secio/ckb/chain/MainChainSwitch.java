package io.secio.ckb.chain;

import io.secio.ckb.header.Byte32;
import io.secio.ckb.store.BlockId;
import io.secio.ckb.store.HeaderStore;
import io.secio.ckb.store.StoredHeader;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Makes a branch the main chain inside a store batch: from its new tip back to where it meets the
 * main chain, every number points at the branch's block; numbers above the new tip that the old
 * main chain had are dropped.
 */
final class MainChainSwitch {
  private final HeaderStore store;
  private final HeaderStore.Batch batch;

  MainChainSwitch(HeaderStore store, HeaderStore.Batch batch) {
    this.store = store;
    this.batch = batch;
  }

  /**
   * Switches to the chain ending at the last of {@code fresh} (the headers this batch adds, in
   * order); {@code oldTip} was the main chain's end.
   *
   * @return the lowest number whose main-chain block changed
   */
  long to(List<StoredHeader> fresh, Tip oldTip) {
    Map<Byte32, StoredHeader> added = new HashMap<>();
    fresh.forEach(h -> added.put(h.hash(), h));
    StoredHeader newTip = fresh.get(fresh.size() - 1);
    Map<Long, Byte32> rewrite = new HashMap<>();
    StoredHeader cursor = newTip;
    while (!store.mainHash(cursor.number()).map(cursor.hash()::equals).orElse(false)) {
      rewrite.put(cursor.number(), cursor.hash());
      Byte32 parent = cursor.header().parentHash();
      // The batch's own headers from memory (their hashes are known), older ones from the store.
      StoredHeader next = added.containsKey(parent) ? added.get(parent)
          : store.get(cursor.number() - 1, parent).orElse(null);
      if (next == null) {
        // Only the start may be held without its header; it is on the main chain.
        break;
      }
      cursor = next;
    }
    rewrite.forEach(batch::setMain);
    for (long n = newTip.number() + 1; n <= oldTip.number(); n++) {
      batch.removeMain(n);
    }
    batch.setTip(new BlockId(newTip.hash(), newTip.number()));
    return rewrite.keySet().stream().mapToLong(Long::longValue).min().orElse(newTip.number());
  }
}
