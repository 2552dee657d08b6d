package io.secio.identity;

import java.math.BigInteger;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * Edwards25519 arithmetic in plain {@link BigInteger}s, slow and independent of every engine under
 * test: to build keys and signatures no honest signer makes (a key or an R with a small-order
 * component) and to state what the cofactorless and the cofactored equations say about them.
 */
final class EdwardsPoints {
  static final BigInteger P = BigInteger.TWO.pow(255).subtract(BigInteger.valueOf(19));
  /** The prime order of the base point. */
  static final BigInteger L = BigInteger.TWO.pow(252)
      .add(new BigInteger("27742317777372353535851937790883648493"));
  private static final BigInteger D = BigInteger.valueOf(-121665)
      .multiply(BigInteger.valueOf(121666).modInverse(P)).mod(P);
  private static final BigInteger SQRT_MINUS_ONE =
      BigInteger.TWO.modPow(P.subtract(BigInteger.ONE).shiftRight(2), P);
  static final Point IDENTITY = new Point(BigInteger.ZERO, BigInteger.ONE);
  static final Point BASE = decode(hex("5866666666666666666666666666666666666666666666666666666666666666"));

  private EdwardsPoints() {}

  /** An affine point on -x^2 + y^2 = 1 + d x^2 y^2. */
  record Point(BigInteger x, BigInteger y) {
    Point plus(Point o) {
      BigInteger t = D.multiply(x).multiply(o.x).multiply(y).multiply(o.y).mod(P);
      BigInteger x3 = x.multiply(o.y).add(y.multiply(o.x))
          .multiply(BigInteger.ONE.add(t).modInverse(P)).mod(P);
      BigInteger y3 = y.multiply(o.y).add(x.multiply(o.x))
          .multiply(BigInteger.ONE.subtract(t).mod(P).modInverse(P)).mod(P);
      return new Point(x3, y3);
    }

    Point times(BigInteger k) {
      Point result = IDENTITY;
      for (int i = k.bitLength() - 1; i >= 0; i--) {
        result = result.plus(result);
        if (k.testBit(i)) {
          result = result.plus(this);
        }
      }
      return result;
    }

    /** RFC 8032 section 5.1.2: y little-endian, the sign of x in the top bit. */
    byte[] encode() {
      byte[] out = littleEndian(y);
      if (x.testBit(0)) {
        out[31] |= (byte) 0x80;
      }
      return out;
    }
  }

  /** RFC 8032 section 5.1.3. */
  static Point decode(byte[] encoded) {
    byte[] copy = encoded.clone();
    boolean xOdd = (copy[31] & 0x80) != 0;
    copy[31] &= 0x7f;
    BigInteger y = fromLittleEndian(copy);
    BigInteger u = y.multiply(y).subtract(BigInteger.ONE).mod(P);
    BigInteger v = D.multiply(y).multiply(y).add(BigInteger.ONE).mod(P);
    BigInteger x2 = u.multiply(v.modInverse(P)).mod(P);
    BigInteger x = x2.modPow(P.add(BigInteger.valueOf(3)).shiftRight(3), P);
    if (!x.multiply(x).mod(P).equals(x2)) {
      x = x.multiply(SQRT_MINUS_ONE).mod(P);
    }
    if (!x.multiply(x).mod(P).equals(x2)) {
      throw new IllegalArgumentException("not a point");
    }
    if (x.testBit(0) != xOdd) {
      x = P.subtract(x).mod(P);
    }
    return new Point(x, y);
  }

  /** SHA-512(R || A || M) mod L, the hash scalar of RFC 8032 section 5.1.6. */
  static BigInteger challenge(byte[] r, byte[] a, byte[] message) {
    try {
      MessageDigest sha512 = MessageDigest.getInstance("SHA-512");
      sha512.update(r);
      sha512.update(a);
      sha512.update(message);
      return fromLittleEndian(sha512.digest()).mod(L);
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  /** R || S, S little-endian. */
  static byte[] signature(Point r, BigInteger s) {
    byte[] out = Arrays.copyOf(r.encode(), 64);
    System.arraycopy(littleEndian(s), 0, out, 32, 32);
    return out;
  }

  /** [S]B = R + [k]A. */
  static boolean cofactorless(byte[] publicKey, byte[] message, byte[] signature) {
    Point a = decode(publicKey);
    Point r = decode(Arrays.copyOf(signature, 32));
    BigInteger s = fromLittleEndian(Arrays.copyOfRange(signature, 32, 64));
    BigInteger k = challenge(Arrays.copyOf(signature, 32), publicKey, message);
    return BASE.times(s).equals(r.plus(a.times(k)));
  }

  static byte[] littleEndian(BigInteger value) {
    byte[] big = value.toByteArray();
    byte[] out = new byte[32];
    for (int i = 0; i < 32 && i < big.length; i++) {
      out[i] = big[big.length - 1 - i];
    }
    return out;
  }

  static BigInteger fromLittleEndian(byte[] bytes) {
    byte[] big = new byte[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      big[i] = bytes[bytes.length - 1 - i];
    }
    return new BigInteger(1, big);
  }

  static byte[] hex(String s) {
    return java.util.HexFormat.of().parseHex(s);
  }
}
