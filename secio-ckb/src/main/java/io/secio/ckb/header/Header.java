package io.secio.ckb.header;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * A CKB block header: the molecule {@code Header} struct of 208 bytes, a {@code RawHeader} of 192
 * then the nonce (all numbers little-endian).
 *
 * <pre>
 * offset  field              type
 *      0  version            Uint32 (0 in every valid header)
 *      4  compact_target     Uint32
 *      8  timestamp          Uint64, milliseconds since the Unix epoch
 *     16  number             Uint64
 *     24  epoch              Uint64, number with fraction
 *     32  parent_hash        Byte32
 *     64  transactions_root  Byte32
 *     96  proposals_hash     Byte32
 *    128  extra_hash         Byte32 (uncles_hash before CKB2021)
 *    160  dao                Byte32
 *    192  nonce              Uint128
 * </pre>
 *
 * <p>The block hash is ckbhash of the 208 bytes; the PoW hash is ckbhash of the first 192. A header
 * says nothing about its own validity: {@link HeaderVerifier} checks it against its parent.
 *
 * <p>Immutable and thread-safe (the hash is computed once, on first use).
 */
public final class Header {
  /** Size of a molecule {@code Header}. */
  public static final int SIZE_IN_BYTES = 208;
  /** Size of a molecule {@code RawHeader}: the header without its nonce. */
  public static final int RAW_SIZE_IN_BYTES = 192;
  /** Size of the nonce, a u128. */
  public static final int NONCE_SIZE_IN_BYTES = 16;

  static final int COMPACT_TARGET_AT = 4;
  static final int TIMESTAMP_AT = 8;
  static final int NUMBER_AT = 16;
  static final int EPOCH_AT = 24;
  static final int PARENT_HASH_AT = 32;
  static final int TRANSACTIONS_ROOT_AT = 64;
  static final int PROPOSALS_HASH_AT = 96;
  static final int EXTRA_HASH_AT = 128;
  static final int DAO_AT = 160;
  static final int NONCE_AT = 192;

  private final byte[] bytes;
  private Byte32 hash;

  private Header(byte[] bytes) {
    this.bytes = bytes;
  }

  /**
   * The header that {@code bytes} encode, copied. Any 208 bytes are a header.
   *
   * @param bytes 208 bytes
   * @return the header
   * @throws IllegalArgumentException if there are not 208 bytes
   */
  public static Header fromBytes(byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    if (bytes.length != SIZE_IN_BYTES) {
      throw new IllegalArgumentException("a header has 208 bytes, not " + bytes.length);
    }
    return new Header(bytes.clone());
  }

  /**
   * The header at {@code bytes[offset, offset + 208)}, copied.
   *
   * @param bytes holds the header
   * @param offset where it starts
   * @return the header
   */
  public static Header fromBytes(byte[] bytes, int offset) {
    return new Header(Arrays.copyOfRange(bytes, offset, offset + SIZE_IN_BYTES));
  }

  /** A builder with every field zero. */
  public static Builder builder() {
    return new Builder(new byte[SIZE_IN_BYTES]);
  }

  /** A builder that starts from this header's fields. */
  public Builder toBuilder() {
    return new Builder(bytes.clone());
  }

  /** The 208 bytes (a copy). */
  public byte[] toBytes() {
    return bytes.clone();
  }

  /**
   * Copies the 208 bytes into {@code out} at {@code offset}.
   *
   * @param out the destination
   * @param offset where they go
   */
  public void copyTo(byte[] out, int offset) {
    System.arraycopy(bytes, 0, out, offset, SIZE_IN_BYTES);
  }

  /** The block hash: ckbhash of the 208 bytes. */
  public Byte32 hash() {
    Byte32 h = hash;
    if (h == null) {
      h = Byte32.of(Ckbhash.hash(bytes, 0, SIZE_IN_BYTES));
      hash = h;
    }
    return h;
  }

  /** The PoW hash: ckbhash of the raw header, the first 192 bytes. */
  public Byte32 powHash() {
    return Byte32.of(Ckbhash.hash(bytes, 0, RAW_SIZE_IN_BYTES));
  }

  /**
   * The PoW message: the PoW hash, then the nonce as 16 little-endian bytes.
   *
   * @return 48 bytes
   */
  public byte[] powMessage() {
    byte[] message = new byte[Byte32.SIZE_IN_BYTES + NONCE_SIZE_IN_BYTES];
    new Ckbhash().update(bytes, 0, RAW_SIZE_IN_BYTES).finish(message, 0);
    System.arraycopy(bytes, NONCE_AT, message, Byte32.SIZE_IN_BYTES, NONCE_SIZE_IN_BYTES);
    return message;
  }

  /** {@code version}, a u32 (0 in every valid header). */
  public long version() {
    return Integer.toUnsignedLong(le().getInt(0));
  }

  /** {@code compact_target}, the 32 bits as read. */
  public int compactTarget() {
    return le().getInt(COMPACT_TARGET_AT);
  }

  /** {@code timestamp}, milliseconds since the Unix epoch (a u64; a negative value is above 2^63). */
  public long timestamp() {
    return le().getLong(TIMESTAMP_AT);
  }

  /** {@code number}, the block number (a u64; a negative value is above 2^63). */
  public long number() {
    return le().getLong(NUMBER_AT);
  }

  /** {@code epoch}. */
  public EpochNumberWithFraction epoch() {
    return EpochNumberWithFraction.fromFullValue(le().getLong(EPOCH_AT));
  }

  /** {@code parent_hash}. */
  public Byte32 parentHash() {
    return Byte32.of(bytes, PARENT_HASH_AT);
  }

  /** {@code transactions_root}. */
  public Byte32 transactionsRoot() {
    return Byte32.of(bytes, TRANSACTIONS_ROOT_AT);
  }

  /** {@code proposals_hash}. */
  public Byte32 proposalsHash() {
    return Byte32.of(bytes, PROPOSALS_HASH_AT);
  }

  /** {@code extra_hash}: the uncles hash, or ckbhash(uncles hash ‖ ckbhash(extension)) with an extension. */
  public Byte32 extraHash() {
    return Byte32.of(bytes, EXTRA_HASH_AT);
  }

  /** {@code dao}. */
  public Byte32 dao() {
    return Byte32.of(bytes, DAO_AT);
  }

  /** {@code nonce}, an unsigned 128-bit number. */
  public BigInteger nonce() {
    byte[] bigEndian = new byte[NONCE_SIZE_IN_BYTES];
    for (int i = 0; i < NONCE_SIZE_IN_BYTES; i++) {
      bigEndian[i] = bytes[NONCE_AT + NONCE_SIZE_IN_BYTES - 1 - i];
    }
    return new BigInteger(1, bigEndian);
  }

  /** Whether this is a block number 0 header. */
  public boolean isGenesis() {
    return number() == 0;
  }

  private ByteBuffer le() {
    return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Header other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  /** {@code #NUMBER 0xHASH}, unsigned number. */
  @Override
  public String toString() {
    return "#" + Long.toUnsignedString(number()) + " " + hash();
  }

  /** Sets a header's fields; {@link #build} copies, so a builder can go on. Not thread-safe. */
  public static final class Builder {
    private final byte[] bytes;

    private Builder(byte[] bytes) {
      this.bytes = bytes;
    }

    private ByteBuffer le() {
      return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Sets {@code version}.
     *
     * @param version a u32
     * @return this
     */
    public Builder version(long version) {
      if (version < 0 || version > 0xffffffffL) {
        throw new IllegalArgumentException("a version is a u32, not " + version);
      }
      le().putInt(0, (int) version);
      return this;
    }

    /**
     * Sets {@code compact_target}.
     *
     * @param compactTarget the 32 bits
     * @return this
     */
    public Builder compactTarget(int compactTarget) {
      le().putInt(COMPACT_TARGET_AT, compactTarget);
      return this;
    }

    /**
     * Sets {@code timestamp}.
     *
     * @param millis milliseconds since the Unix epoch, a u64
     * @return this
     */
    public Builder timestamp(long millis) {
      le().putLong(TIMESTAMP_AT, millis);
      return this;
    }

    /**
     * Sets {@code number}.
     *
     * @param number the block number, a u64
     * @return this
     */
    public Builder number(long number) {
      le().putLong(NUMBER_AT, number);
      return this;
    }

    /**
     * Sets {@code epoch}.
     *
     * @param epoch the epoch
     * @return this
     */
    public Builder epoch(EpochNumberWithFraction epoch) {
      le().putLong(EPOCH_AT, epoch.fullValue());
      return this;
    }

    /**
     * Sets {@code parent_hash}.
     *
     * @param hash the parent's hash
     * @return this
     */
    public Builder parentHash(Byte32 hash) {
      hash.copyTo(bytes, PARENT_HASH_AT);
      return this;
    }

    /**
     * Sets {@code transactions_root}.
     *
     * @param root the root
     * @return this
     */
    public Builder transactionsRoot(Byte32 root) {
      root.copyTo(bytes, TRANSACTIONS_ROOT_AT);
      return this;
    }

    /**
     * Sets {@code proposals_hash}.
     *
     * @param hash the hash
     * @return this
     */
    public Builder proposalsHash(Byte32 hash) {
      hash.copyTo(bytes, PROPOSALS_HASH_AT);
      return this;
    }

    /**
     * Sets {@code extra_hash}.
     *
     * @param hash the hash
     * @return this
     */
    public Builder extraHash(Byte32 hash) {
      hash.copyTo(bytes, EXTRA_HASH_AT);
      return this;
    }

    /**
     * Sets {@code dao}.
     *
     * @param dao the field
     * @return this
     */
    public Builder dao(Byte32 dao) {
      dao.copyTo(bytes, DAO_AT);
      return this;
    }

    /**
     * Sets {@code nonce}.
     *
     * @param nonce 0 &le; nonce &lt; 2^128
     * @return this
     */
    public Builder nonce(BigInteger nonce) {
      if (nonce.signum() < 0 || nonce.bitLength() > 128) {
        throw new IllegalArgumentException("a nonce is a u128, not " + nonce);
      }
      byte[] bigEndian = nonce.toByteArray();
      Arrays.fill(bytes, NONCE_AT, SIZE_IN_BYTES, (byte) 0);
      for (int i = 0; i < Math.min(bigEndian.length, NONCE_SIZE_IN_BYTES); i++) {
        bytes[NONCE_AT + i] = bigEndian[bigEndian.length - 1 - i];
      }
      return this;
    }

    /** The header. */
    public Header build() {
      return new Header(bytes.clone());
    }
  }
}
