package io.secio.ckb.chain;

import io.secio.ckb.header.Byte32;
import io.secio.ckb.header.Consensus;
import io.secio.ckb.header.Header;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a follower starts: the genesis block, or a block the user trusts, given by hash and number
 * and optionally its header. Nothing before it is fetched or checked. With the header, the first
 * headers after it are checked in full except for the median time (which only counts what is
 * held); without it, epoch continuity and the compact target of the first header cannot be.
 *
 * @param hash the block's hash
 * @param number its number
 * @param header its header, if known
 */
public record Checkpoint(Byte32 hash, long number, Optional<Header> header) {
  /**
   * A start.
   *
   * @param hash the block's hash
   * @param number its number
   * @param header its header, if known; it must have that hash and number
   */
  public Checkpoint {
    Objects.requireNonNull(hash, "hash");
    Objects.requireNonNull(header, "header");
    if (header.isPresent() && (!header.get().hash().equals(hash) || header.get().number() != number)) {
      throw new IllegalArgumentException("header " + header.get() + " is not #" + number + " " + hash);
    }
  }

  /**
   * The genesis block of {@code consensus}'s network, known by hash only.
   *
   * @param consensus the network's rules
   * @return block 0 with the genesis hash
   */
  public static Checkpoint genesis(Consensus consensus) {
    return new Checkpoint(consensus.genesisHash(), 0, Optional.empty());
  }

  /**
   * A block known by its header.
   *
   * @param header the header
   * @return the checkpoint at it
   */
  public static Checkpoint of(Header header) {
    return new Checkpoint(header.hash(), header.number(), Optional.of(header));
  }

  /**
   * Parses {@code HASH:NUMBER} (hash as {@code 0x} and 64 lower-case hex digits), as a command line
   * takes it.
   *
   * @param text the text
   * @return the checkpoint, without a header
   * @throws IllegalArgumentException if the text is not that
   */
  public static Checkpoint parse(String text) {
    int colon = text.lastIndexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("a checkpoint is HASH:NUMBER, not " + text);
    }
    try {
      return new Checkpoint(Byte32.parse(text.substring(0, colon)),
          Long.parseUnsignedLong(text.substring(colon + 1)), Optional.empty());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("a checkpoint's number is decimal, not " + text.substring(colon + 1), e);
    }
  }
}
