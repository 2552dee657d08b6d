package io.secio.ckb.lightclient;

import io.secio.ckb.header.Header;
import java.util.ArrayList;
import java.util.List;

/**
 * The chain-root MMR of RFC 0044 (CKB's {@code ChainRootMMR}) kept as its peaks only: enough to
 * give the root after each block, which is what a header's extension commits to and a {@code
 * SendLastState} carries, without the interior nodes a proof would need. Leaves are the blocks'
 * {@link HeaderDigest#leaf digests} from genesis on; two peaks of the same height merge into one
 * ({@link HeaderDigest#merge}); the root bags the peaks from the right: merge(p0, merge(p1, …)).
 *
 * <p>Memory: at most 64 peaks of 120 bytes. Not thread-safe.
 */
public final class ChainRoot {
  private final List<HeaderDigest> peaks = new ArrayList<>();
  private final List<Integer> heights = new ArrayList<>();
  private long leaves;

  /** An empty MMR: no block yet. */
  public ChainRoot() {}

  /**
   * Adds the next block.
   *
   * @param header block number {@link #size()}
   * @throws IllegalArgumentException if it is not that block, or its epoch does not follow
   */
  public void push(Header header) {
    if (header.number() != leaves) {
      throw new IllegalArgumentException("block #" + header.number() + " pushed as leaf " + leaves);
    }
    HeaderDigest node = HeaderDigest.leaf(header);
    int height = 0;
    while (!heights.isEmpty() && heights.get(heights.size() - 1) == height) {
      node = HeaderDigest.merge(peaks.remove(peaks.size() - 1), node);
      heights.remove(heights.size() - 1);
      height++;
    }
    peaks.add(node);
    heights.add(height);
    leaves++;
  }

  /** How many blocks it covers: 0 to size − 1. */
  public long size() {
    return leaves;
  }

  /** The root over every block pushed; all zeros when there is none (a genesis header's parent root). */
  public HeaderDigest root() {
    if (peaks.isEmpty()) {
      return HeaderDigest.ZERO;
    }
    HeaderDigest root = peaks.get(peaks.size() - 1);
    for (int i = peaks.size() - 2; i >= 0; i--) {
      root = HeaderDigest.merge(peaks.get(i), root);
    }
    return root;
  }
}
