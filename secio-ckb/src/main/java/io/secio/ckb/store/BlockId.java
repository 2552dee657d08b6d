package io.secio.ckb.store;

import io.secio.ckb.header.Byte32;
import java.util.Objects;

/**
 * A block named by its hash and number: the store's start (genesis or a checkpoint) and its tip.
 *
 * @param hash the block's hash
 * @param number its number
 */
public record BlockId(Byte32 hash, long number) {
  /**
   * A block.
   *
   * @param hash the block's hash
   * @param number its number
   */
  public BlockId {
    Objects.requireNonNull(hash, "hash");
  }

  @Override
  public String toString() {
    return "#" + Long.toUnsignedString(number) + " " + hash;
  }
}
