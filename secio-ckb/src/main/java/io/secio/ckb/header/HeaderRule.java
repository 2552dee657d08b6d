package io.secio.ckb.header;

/**
 * The rule a refused header broke. Each refusal is a {@link HeaderException} naming the header and
 * one of these; a CKB node bans a peer for every one but {@link #TIMESTAMP_TOO_NEW}, which it takes
 * as "not yet".
 */
public enum HeaderRule {
  /** {@code version} is not 0. */
  VERSION,
  /** {@code parent_hash} is not the hash of the header before it (in a batch, or the one it extends). */
  PARENT,
  /** The parent is not one the follower holds. */
  UNKNOWN_PARENT,
  /** {@code number} is not the parent's plus one. */
  NUMBER,
  /** {@code epoch} has an index not below its length. */
  EPOCH_MALFORMED,
  /** {@code epoch} is not the parent's next index, nor index 0 of the next epoch after its last block. */
  EPOCH_NOT_SUCCESSOR,
  /** {@code compact_target} differs from the parent's in the same epoch. */
  COMPACT_TARGET_CHANGED,
  /** {@code compact_target} stands for a zero target or one that overflows 256 bits. */
  COMPACT_TARGET_INVALID,
  /** {@code timestamp} is not after the median of the previous 37 blocks' timestamps. */
  TIMESTAMP_TOO_OLD,
  /** {@code timestamp} is more than 15 s ahead of the local clock: not refused for good, only not yet. */
  TIMESTAMP_TOO_NEW,
  /** The nonce is not a proof of work for the target under the network's rule. */
  POW,
  /** A block number 0 header whose hash is not the network's genesis hash. */
  GENESIS,
  /** More than 2000 headers in one SendHeaders. */
  BATCH_TOO_LONG,
  /** {@code extra_hash} is not what the uncles hash and extension of a {@code VerifiableHeader} give. */
  EXTRA_HASH,
  /** A header after the chain-root activation whose extension does not start with ckbhash(parent chain root). */
  CHAIN_ROOT,
  /** A light-client tip more than 24 hours older than the local clock: the server is still syncing. */
  TIP_TOO_OLD;

  /** Whether a header refused for this may become valid later (only a timestamp ahead of the clock). */
  public boolean isTemporary() {
    return this == TIMESTAMP_TOO_NEW;
  }
}
