package io.secio.ckb.lightclient;

import io.secio.ckb.header.Byte32;
import io.secio.ckb.header.Ckbhash;
import io.secio.ckb.header.CompactTarget;
import io.secio.ckb.header.EpochNumberWithFraction;
import io.secio.ckb.header.Header;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * A node of the chain-root MMR (RFC 0044), the molecule struct {@code HeaderDigest} of 120 bytes
 * (numbers little-endian):
 *
 * <pre>
 * offset  field
 *      0  children_hash          Byte32
 *     32  total_difficulty       Uint256
 *     64  start_number           Uint64     72  end_number
 *     80  start_epoch            Uint64     88  end_epoch
 *     96  start_timestamp        Uint64    104  end_timestamp
 *    112  start_compact_target   Uint32    116  end_compact_target
 * </pre>
 *
 * A leaf digests one block: its hash, its difficulty, its number, epoch, timestamp and compact
 * target as both start and end. The node's hash, which an extension commits to, is ckbhash of the
 * 120 bytes.
 *
 * <p>Immutable and thread-safe.
 */
public final class HeaderDigest {
  /** Size of the struct. */
  public static final int SIZE_IN_BYTES = 120;
  /** All zeros: the parent chain root a genesis header comes with. */
  public static final HeaderDigest ZERO = new HeaderDigest(new byte[SIZE_IN_BYTES]);

  private final byte[] bytes;

  private HeaderDigest(byte[] bytes) {
    this.bytes = bytes;
  }

  /**
   * The digest {@code bytes} encode, copied.
   *
   * @param bytes 120 bytes
   * @return the digest
   * @throws IllegalArgumentException if there are not 120 bytes
   */
  public static HeaderDigest fromBytes(byte[] bytes) {
    if (bytes.length != SIZE_IN_BYTES) {
      throw new IllegalArgumentException("a HeaderDigest has 120 bytes, not " + bytes.length);
    }
    return new HeaderDigest(bytes.clone());
  }

  /**
   * The MMR leaf of {@code header}.
   *
   * @param header the block's header
   * @return its digest; its difficulty is zero if the compact target is invalid (as CKB's)
   */
  public static HeaderDigest leaf(Header header) {
    int compact = header.compactTarget();
    BigInteger difficulty = CompactTarget.isValid(compact) ? CompactTarget.toDifficulty(compact) : BigInteger.ZERO;
    ByteBuffer out = ByteBuffer.allocate(SIZE_IN_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    out.put(header.hash().toBytes()).put(u256(difficulty))
        .putLong(header.number()).putLong(header.number())
        .putLong(header.epoch().fullValue()).putLong(header.epoch().fullValue())
        .putLong(header.timestamp()).putLong(header.timestamp())
        .putInt(compact).putInt(compact);
    return new HeaderDigest(out.array());
  }

  /** The 120 bytes (a copy). */
  public byte[] toBytes() {
    return bytes.clone();
  }

  /** ckbhash of the 120 bytes: what an extension starts with. */
  public Byte32 mmrHash() {
    return Byte32.of(Ckbhash.hash(bytes));
  }

  /** {@code children_hash}: a leaf's block hash, or the hash of a node's two children's hashes. */
  public Byte32 childrenHash() {
    return Byte32.of(bytes, 0);
  }

  /** {@code total_difficulty}: the sum of the covered blocks' difficulties. */
  public BigInteger totalDifficulty() {
    byte[] bigEndian = new byte[32];
    for (int i = 0; i < 32; i++) {
      bigEndian[i] = bytes[32 + 31 - i];
    }
    return new BigInteger(1, bigEndian);
  }

  /** {@code start_number}. */
  public long startNumber() {
    return le().getLong(64);
  }

  /** {@code end_number}. */
  public long endNumber() {
    return le().getLong(72);
  }

  /** {@code start_epoch}. */
  public EpochNumberWithFraction startEpoch() {
    return EpochNumberWithFraction.fromFullValue(le().getLong(80));
  }

  /** {@code end_epoch}. */
  public EpochNumberWithFraction endEpoch() {
    return EpochNumberWithFraction.fromFullValue(le().getLong(88));
  }

  /** Whether every byte is zero. */
  public boolean isZero() {
    return equals(ZERO);
  }

  private ByteBuffer le() {
    return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  /** {@code value} as 32 little-endian bytes; it must be below 2^256. */
  static byte[] u256(BigInteger value) {
    Objects.requireNonNull(value, "value");
    if (value.signum() < 0 || value.bitLength() > 256) {
      throw new IllegalArgumentException("not a u256: " + value);
    }
    byte[] bigEndian = value.toByteArray();
    byte[] out = new byte[32];
    for (int i = 0; i < Math.min(32, bigEndian.length); i++) {
      out[i] = bigEndian[bigEndian.length - 1 - i];
    }
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof HeaderDigest other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return "HeaderDigest[#" + Long.toUnsignedString(startNumber()) + "..#" + Long.toUnsignedString(endNumber())
        + ", " + childrenHash() + "]";
  }
}
