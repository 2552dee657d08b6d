package io.secio.ckb.header;

import java.math.BigInteger;

/**
 * A header's {@code compact_target}: a 256-bit PoW target in 32 bits (CKB's
 * {@code utilities/difficulty.rs}). The top byte is an exponent e (a byte count), the low 24 bits an
 * unsigned mantissa m: target = m &gt;&gt; 8(3 - e) when e &le; 3, else m &lt;&lt; 8(e - 3). A
 * compact target is invalid when its target is zero or overflows 256 bits (m &ne; 0 and e &gt; 32);
 * no header with one passes PoW. Difficulty = &lfloor;2^256 / target&rfloor; (2^256 - 1 for target 1).
 *
 * <p>Stateless and thread-safe.
 */
public final class CompactTarget {
  /** 2^256: the size of the hash space. */
  private static final BigInteger HASH_SPACE = BigInteger.ONE.shiftLeft(256);
  private static final BigInteger MAX_U256 = HASH_SPACE.subtract(BigInteger.ONE);

  private CompactTarget() {}

  /**
   * Whether {@code compact} stands for a usable target: neither zero nor overflowing 256 bits.
   *
   * @param compact the compact target
   * @return whether it is valid
   */
  public static boolean isValid(int compact) {
    int exponent = compact >>> 24;
    int mantissa = compact & 0xffffff;
    boolean overflow = mantissa != 0 && exponent > 32;
    return !overflow && expand(compact).signum() != 0;
  }

  /**
   * The target {@code compact} stands for.
   *
   * @param compact the compact target
   * @return the target, 0 &lt; target &lt; 2^256
   * @throws IllegalArgumentException if the target is zero or overflows
   */
  public static BigInteger toTarget(int compact) {
    if (!isValid(compact)) {
      throw new IllegalArgumentException(
          "compact target 0x" + Integer.toHexString(compact) + " is zero or overflows 256 bits");
    }
    return expand(compact);
  }

  /**
   * The target as 32 big-endian bytes, for comparing with a PoW output.
   *
   * @param compact the compact target
   * @return 32 bytes
   * @throws IllegalArgumentException if the target is zero or overflows
   */
  public static byte[] toTargetBytes(int compact) {
    return toU256Bytes(toTarget(compact));
  }

  private static BigInteger expand(int compact) {
    int exponent = compact >>> 24;
    BigInteger mantissa = BigInteger.valueOf(compact & 0xffffff);
    return exponent <= 3
        ? mantissa.shiftRight(8 * (3 - exponent))
        : mantissa.shiftLeft(8 * (exponent - 3)).and(MAX_U256);
  }

  /**
   * The compact form of {@code target}, as CKB's {@code target_to_compact} writes it.
   *
   * @param target 0 &lt; target &lt; 2^256
   * @return the compact target
   * @throws IllegalArgumentException if the target is out of that range
   */
  public static int fromTarget(BigInteger target) {
    requireU256(target, "target");
    int exponent = (target.bitLength() + 7) / 8;
    long mantissa = exponent <= 3
        ? target.longValue() << (8 * (3 - exponent))
        : target.shiftRight(8 * (exponent - 3)).longValue();
    return (int) (mantissa | ((long) exponent << 24));
  }

  /**
   * The difficulty of {@code compact}: &lfloor;2^256 / target&rfloor;, or 2^256 - 1 for target 1.
   *
   * @param compact the compact target
   * @return the difficulty, at least 1
   * @throws IllegalArgumentException if the target is zero or overflows
   */
  public static BigInteger toDifficulty(int compact) {
    return targetToDifficulty(toTarget(compact));
  }

  /**
   * The compact target of {@code difficulty}, as CKB's {@code difficulty_to_compact}: the target
   * &lfloor;2^256 / difficulty&rfloor; (2^256 - 1 for difficulty 1) in compact form.
   *
   * @param difficulty 0 &lt; difficulty &lt; 2^256
   * @return the compact target
   * @throws IllegalArgumentException if the difficulty is out of that range
   */
  public static int fromDifficulty(BigInteger difficulty) {
    requireU256(difficulty, "difficulty");
    return fromTarget(targetToDifficulty(difficulty));
  }

  /** The same map both ways: &lfloor;2^256 / x&rfloor;, saturated at 2^256 - 1 for x = 1. */
  private static BigInteger targetToDifficulty(BigInteger x) {
    return x.equals(BigInteger.ONE) ? MAX_U256 : HASH_SPACE.divide(x);
  }

  private static void requireU256(BigInteger value, String what) {
    if (value.signum() <= 0 || value.bitLength() > 256) {
      throw new IllegalArgumentException("a " + what + " is above 0 and below 2^256, not " + value);
    }
  }

  /**
   * {@code value} as 32 big-endian bytes.
   *
   * @param value 0 &le; value &lt; 2^256
   * @return 32 bytes
   */
  static byte[] toU256Bytes(BigInteger value) {
    byte[] raw = value.toByteArray();
    byte[] out = new byte[32];
    int from = Math.max(0, raw.length - 32);
    System.arraycopy(raw, from, out, 32 - (raw.length - from), raw.length - from);
    return out;
  }
}
