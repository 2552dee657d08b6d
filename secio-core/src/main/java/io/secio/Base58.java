package io.secio;

import java.math.BigInteger;

/**
 * Base58 with the bitcoin alphabet, as libp2p shows peer ids. Each leading zero byte is one leading
 * {@code '1'}. Stateless and thread-safe.
 *
 * <p>The conversion goes through {@link BigInteger}, which is quadratic in the length: callers bound
 * the input (peer ids are at most 44 bytes).
 */
final class Base58 {
  private static final String ALPHABET =
      "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  private static final BigInteger BASE = BigInteger.valueOf(58);

  private Base58() {}

  static String encode(byte[] bytes) {
    int zeros = 0;
    while (zeros < bytes.length && bytes[zeros] == 0) {
      zeros++;
    }
    StringBuilder reversed = new StringBuilder();
    BigInteger value = new BigInteger(1, bytes);
    while (value.signum() > 0) {
      BigInteger[] quotientAndRemainder = value.divideAndRemainder(BASE);
      reversed.append(ALPHABET.charAt(quotientAndRemainder[1].intValue()));
      value = quotientAndRemainder[0];
    }
    reversed.append("1".repeat(zeros));
    return reversed.reverse().toString();
  }

  /** @throws IllegalArgumentException if {@code text} holds a character outside the alphabet */
  static byte[] decode(String text) {
    int zeros = 0;
    while (zeros < text.length() && text.charAt(zeros) == '1') {
      zeros++;
    }
    BigInteger value = BigInteger.ZERO;
    for (int i = zeros; i < text.length(); i++) {
      int digit = ALPHABET.indexOf(text.charAt(i));
      if (digit < 0) {
        throw new IllegalArgumentException("not a base58 character at index " + i);
      }
      value = value.multiply(BASE).add(BigInteger.valueOf(digit));
    }
    byte[] magnitude = value.signum() == 0 ? new byte[0] : value.toByteArray();
    // toByteArray adds a zero sign byte when the top bit is set; it is not part of the value.
    int signByte = magnitude.length > 0 && magnitude[0] == 0 ? 1 : 0;
    byte[] out = new byte[zeros + magnitude.length - signByte];
    System.arraycopy(magnitude, signByte, out, zeros, magnitude.length - signByte);
    return out;
  }
}
