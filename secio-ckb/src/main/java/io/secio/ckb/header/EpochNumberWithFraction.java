package io.secio.ckb.header;

/**
 * A header's {@code epoch} field: which epoch the block is in and where (CKB's
 * {@code EpochNumberWithFraction}). One u64: bits 0-23 the epoch number, 24-39 the block's index in
 * the epoch, 40-55 the epoch's length in blocks. Bits 56-63 are kept as read but mean nothing: CKB
 * reads the three fields through masks, so a value is compared and checked as CKB does.
 *
 * <p>Well formed: length greater than index. The genesis header alone has number, index and length
 * all zero. Ordering (as CKB's {@code Ord}) compares numbers, then the fractions index/length, so
 * 1/2 and 2/4 of one epoch compare equal while {@link #equals} tells them apart.
 *
 * <p>Immutable and thread-safe.
 */
public final class EpochNumberWithFraction implements Comparable<EpochNumberWithFraction> {
  /** One more than the largest epoch number (24 bits). */
  public static final long NUMBER_LIMIT = 1L << 24;
  /** One more than the largest index or length (16 bits). */
  public static final int INDEX_LIMIT = 1 << 16;

  /** The genesis header's epoch: number, index and length zero. */
  public static final EpochNumberWithFraction GENESIS = new EpochNumberWithFraction(0);

  private final long value;

  private EpochNumberWithFraction(long value) {
    this.value = value;
  }

  /**
   * The epoch field as a header holds it.
   *
   * @param value the u64 (bits 56-63 are kept, as CKB keeps them)
   * @return the value
   */
  public static EpochNumberWithFraction fromFullValue(long value) {
    return new EpochNumberWithFraction(value);
  }

  /**
   * Block {@code index} of epoch {@code number}, which has {@code length} blocks.
   *
   * @param number the epoch number, below 2^24
   * @param index the block's index in the epoch, below 2^16
   * @param length the epoch's length, below 2^16
   * @return the value; not necessarily well formed
   * @throws IllegalArgumentException if a field does not fit its bits
   */
  public static EpochNumberWithFraction of(long number, int index, int length) {
    if (number < 0 || number >= NUMBER_LIMIT || index < 0 || index >= INDEX_LIMIT
        || length < 0 || length >= INDEX_LIMIT) {
      throw new IllegalArgumentException(
          "an epoch is number < 2^24, index and length < 2^16, not " + number + "(" + index + "/" + length + ")");
    }
    return new EpochNumberWithFraction(((long) length << 40) | ((long) index << 24) | number);
  }

  /** The u64 a header holds. */
  public long fullValue() {
    return value;
  }

  /** The epoch number (bits 0-23). */
  public long number() {
    return value & (NUMBER_LIMIT - 1);
  }

  /** The block's index in its epoch (bits 24-39). */
  public int index() {
    return (int) ((value >>> 24) & (INDEX_LIMIT - 1));
  }

  /** The epoch's length in blocks (bits 40-55). */
  public int length() {
    return (int) ((value >>> 40) & (INDEX_LIMIT - 1));
  }

  /** Whether the length is greater than the index (and so not zero): every header's but genesis's. */
  public boolean isWellFormed() {
    return length() > index();
  }

  /** Whether number, index and length are all zero, as in the genesis header. */
  public boolean isGenesis() {
    return number() == 0 && index() == 0 && length() == 0;
  }

  /**
   * Whether this is the epoch of the block right after one in {@code predecessor}: the next index of
   * the same epoch and length, or, after an epoch's last block, index 0 of the next epoch (of any
   * length).
   *
   * @param predecessor the parent's epoch
   * @return whether this follows it
   */
  public boolean isSuccessorOf(EpochNumberWithFraction predecessor) {
    if (predecessor.index() + 1 == predecessor.length()) {
      return number() == predecessor.number() + 1 && index() == 0;
    }
    return number() == predecessor.number()
        && index() == predecessor.index() + 1
        && length() == predecessor.length();
  }

  /**
   * The epoch of the next block: the next index, or index 0 of the next epoch with
   * {@code nextEpochLength} blocks when this is an epoch's last block.
   *
   * @param nextEpochLength the next epoch's length, used only at an epoch's end
   * @return the successor
   * @throws IllegalStateException if this is not well formed
   */
  public EpochNumberWithFraction successor(int nextEpochLength) {
    if (!isWellFormed()) {
      throw new IllegalStateException("no successor of a malformed epoch " + this);
    }
    if (index() + 1 < length()) {
      return of(number(), index() + 1, length());
    }
    return of(number() + 1, 0, nextEpochLength);
  }

  /** CKB's order: by number, then by index/length as fractions (cross-multiplied). */
  @Override
  public int compareTo(EpochNumberWithFraction other) {
    int byNumber = Long.compare(number(), other.number());
    if (byNumber != 0) {
      return byNumber;
    }
    return Long.compare((long) index() * other.length(), (long) other.index() * length());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof EpochNumberWithFraction other && value == other.value;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(value);
  }

  /** {@code number(index/length)}, as CKB's alternate display. */
  @Override
  public String toString() {
    return number() + "(" + index() + "/" + length() + ")";
  }
}
