package io.secio.ckb.chain;

import io.secio.ckb.header.Byte32;
import java.math.BigInteger;
import java.util.Objects;

/**
 * The last block of a follower's main chain: its hash, number and the total difficulty counted from
 * the follower's start (see {@link io.secio.ckb.store.StoredHeader}).
 *
 * @param hash the block's hash
 * @param number its number
 * @param totalDifficulty the work from the start to it
 */
public record Tip(Byte32 hash, long number, BigInteger totalDifficulty) {
  /**
   * A tip.
   *
   * @param hash the block's hash
   * @param number its number
   * @param totalDifficulty the work from the start to it
   */
  public Tip {
    Objects.requireNonNull(hash, "hash");
    Objects.requireNonNull(totalDifficulty, "totalDifficulty");
  }

  @Override
  public String toString() {
    return "#" + Long.toUnsignedString(number) + " " + hash;
  }
}
