package io.secio.ckb.store;

import io.secio.ckb.header.Byte32;
import io.secio.ckb.header.Header;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Objects;

/**
 * A header as the store keeps it: the header and the total difficulty of its chain up to and
 * including it. Totals count from where the store started: genesis (whose own difficulty counts) or
 * a checkpoint (which counts zero), so they compare branches, not chains of two stores.
 *
 * @param header the header
 * @param totalDifficulty the sum of the difficulties from the store's start to this header
 */
public record StoredHeader(Header header, BigInteger totalDifficulty) {
  /**
   * A header with its total difficulty.
   *
   * @param header the header
   * @param totalDifficulty at least zero, below 2^256 · 2^64
   */
  public StoredHeader {
    Objects.requireNonNull(header, "header");
    Objects.requireNonNull(totalDifficulty, "totalDifficulty");
    if (totalDifficulty.signum() < 0 || totalDifficulty.bitLength() > 320) {
      throw new IllegalArgumentException("a total difficulty is a u320 here, not " + totalDifficulty);
    }
  }

  /** The header's number. */
  public long number() {
    return header.number();
  }

  /** The header's hash. */
  public Byte32 hash() {
    return header.hash();
  }

  /** The header's bytes, then the total difficulty's big-endian magnitude (at most 40 bytes). */
  byte[] encode() {
    byte[] difficulty = totalDifficulty.toByteArray();
    int skip = difficulty.length > 1 && difficulty[0] == 0 ? 1 : 0;
    byte[] out = new byte[Header.SIZE_IN_BYTES + difficulty.length - skip];
    header.copyTo(out, 0);
    System.arraycopy(difficulty, skip, out, Header.SIZE_IN_BYTES, difficulty.length - skip);
    return out;
  }

  static StoredHeader decode(byte[] value) {
    if (value.length <= Header.SIZE_IN_BYTES || value.length > Header.SIZE_IN_BYTES + 40) {
      throw new IllegalStateException("a stored header of " + value.length + " bytes");
    }
    byte[] difficulty = Arrays.copyOfRange(value, Header.SIZE_IN_BYTES, value.length);
    return new StoredHeader(Header.fromBytes(value, 0), new BigInteger(1, difficulty));
  }
}
