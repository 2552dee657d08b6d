package io.secio.identity;

import static java.math.BigInteger.ONE;
import static java.math.BigInteger.TWO;
import static java.math.BigInteger.ZERO;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.protocol.SecioException;
import io.secio.testing.Hex;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which Ed25519 public keys are refused on import: every encoding of every point of small order
 * (for those anyone can sign), non-canonical encodings, and y values with no point.
 *
 * <p>The points are computed here with plain affine Edwards arithmetic on {@link BigInteger}s,
 * independently of the library's code.
 */
class Ed25519KeyValidationTest {
  private static final BigInteger P = ONE.shiftLeft(255).subtract(BigInteger.valueOf(19));
  private static final BigInteger L =
      ONE.shiftLeft(252).add(new BigInteger("27742317777372353535851937790883648493"));
  private static final BigInteger D = BigInteger.valueOf(-121665)
      .multiply(BigInteger.valueOf(121666).modInverse(P)).mod(P);
  private static final BigInteger SQRT_MINUS_ONE = TWO.modPow(P.subtract(ONE).shiftRight(2), P);
  private static final Point IDENTITY = new Point(ZERO, ONE);

  private record Point(BigInteger x, BigInteger y) {}

  @Test
  void everyEncodingOfEveryPointOfSmallOrderIsRefused() {
    List<Point> smallOrder = smallOrderPoints();
    assertEquals(8, smallOrder.stream().distinct().count());
    for (Point t : smallOrder) {
      byte[] canonical = encode(t);
      assertRefused(canonical);
      byte[] otherSign = canonical.clone();
      otherSign[31] ^= (byte) 0x80; // the negated point, or "-0" where x = 0
      assertRefused(otherSign);
      if (t.y().compareTo(BigInteger.valueOf(19)) < 0) { // y + p still fits in 255 bits
        assertRefused(encode(t.y().add(P), t.x().testBit(0)));
      }
    }
  }

  /**
   * A key with a torsion component beside its prime-order part is accepted, as go-libp2p and
   * js-libp2p accept it: only the owner of the prime-order part can sign for it (docs/PROTOCOL.md
   * section 3.1), so the check is canonical, on the curve, not of small order, and no more.
   */
  @Test
  void aPrimeOrderKeyPlusASmallOrderPointIsAccepted() {
    Point a = null;
    for (BigInteger y = BigInteger.valueOf(5); a == null; y = y.add(ONE)) {
      Point q = decode(encode(y, false));
      if (q != null) {
        a = multiply(q, BigInteger.valueOf(8)); // clears the torsion: a point of order L
      }
    }
    assertEquals(IDENTITY, multiply(a, L));
    byte[] primeOrder = encode(a);
    IdentityPublicKey accepted = assertDoesNotThrow(
        () -> IdentityPublicKey.fromProtobuf(KeyProtobufs.encode(KeyType.ED25519, primeOrder)));
    assertEquals(KeyType.ED25519, accepted.type());
    for (Point t : smallOrderPoints().subList(1, 8)) {
      byte[] mixed = encode(add(a, t));
      IdentityPublicKey key = assertDoesNotThrow(
          () -> IdentityPublicKey.fromProtobuf(KeyProtobufs.encode(KeyType.ED25519, mixed)));
      assertEquals(KeyType.ED25519, key.type());
    }
  }

  @Test
  void aYWithNoPointIsRefused() {
    BigInteger y = TWO;
    while (decode(encode(y, false)) != null) {
      y = y.add(ONE);
    }
    assertRefused(encode(y, false));
  }

  private static void assertRefused(byte[] data) {
    SecioException e = assertThrows(SecioException.class,
        () -> IdentityPublicKey.fromProtobuf(KeyProtobufs.encode(KeyType.ED25519, data)),
        Hex.encode(data));
    assertEquals(SecioException.Reason.MALFORMED_MESSAGE, e.reason());
  }

  /**
   * The eight points of order dividing 8, {@code T * i} for i = 0..7: T is the torsion part
   * {@code L * Q} of the first point Q (by y = 2, 3, ...) whose torsion part has order 8.
   */
  private static List<Point> smallOrderPoints() {
    Point t = null;
    for (BigInteger y = TWO; t == null; y = y.add(ONE)) {
      Point q = decode(encode(y, false));
      if (q != null) {
        Point torsion = multiply(q, L);
        if (!multiply(torsion, BigInteger.valueOf(4)).equals(IDENTITY)) {
          t = torsion;
        }
      }
    }
    assertEquals(IDENTITY, multiply(t, BigInteger.valueOf(8)));
    List<Point> points = new ArrayList<>();
    Point p = IDENTITY;
    for (int i = 0; i < 8; i++) {
      points.add(p);
      p = add(p, t);
    }
    return points;
  }

  /** The complete addition law of -x^2 + y^2 = 1 + d x^2 y^2 (d is not a square mod p). */
  private static Point add(Point a, Point b) {
    BigInteger xx = a.x().multiply(b.x()).mod(P);
    BigInteger yy = a.y().multiply(b.y()).mod(P);
    BigInteger dxxyy = D.multiply(xx).multiply(yy).mod(P);
    BigInteger x = a.x().multiply(b.y()).add(a.y().multiply(b.x()))
        .multiply(ONE.add(dxxyy).modInverse(P)).mod(P);
    BigInteger y = yy.add(xx).multiply(ONE.subtract(dxxyy).mod(P).modInverse(P)).mod(P);
    return new Point(x, y);
  }

  private static Point multiply(Point a, BigInteger k) {
    Point r = IDENTITY;
    for (int i = k.bitLength() - 1; i >= 0; i--) {
      r = add(r, r);
      if (k.testBit(i)) {
        r = add(r, a);
      }
    }
    return r;
  }

  /** RFC 8032 section 5.1.3; null if y is not below p or has no point. */
  private static Point decode(byte[] encoded) {
    byte[] bigEndian = new byte[32];
    for (int i = 0; i < 32; i++) {
      bigEndian[i] = encoded[31 - i];
    }
    boolean sign = (bigEndian[0] & 0x80) != 0;
    bigEndian[0] &= 0x7f;
    BigInteger y = new BigInteger(1, bigEndian);
    if (y.compareTo(P) >= 0) {
      return null;
    }
    BigInteger yy = y.multiply(y).mod(P);
    BigInteger xx = yy.subtract(ONE).multiply(D.multiply(yy).add(ONE).modInverse(P)).mod(P);
    BigInteger x = xx.modPow(P.add(BigInteger.valueOf(3)).shiftRight(3), P);
    if (!x.multiply(x).mod(P).equals(xx)) {
      x = x.multiply(SQRT_MINUS_ONE).mod(P);
    }
    if (!x.multiply(x).mod(P).equals(xx) || (x.signum() == 0 && sign)) {
      return null;
    }
    return new Point(x.testBit(0) == sign ? x : P.subtract(x), y);
  }

  private static byte[] encode(Point point) {
    return encode(point.y(), point.x().testBit(0));
  }

  /** y little-endian in 255 bits, the sign of x in the top bit; y may be non-canonical. */
  private static byte[] encode(BigInteger y, boolean sign) {
    assertTrue(y.bitLength() <= 255);
    byte[] bigEndian = y.toByteArray();
    byte[] out = new byte[32];
    for (int i = 0; i < Math.min(32, bigEndian.length); i++) {
      out[i] = bigEndian[bigEndian.length - 1 - i];
    }
    if (sign) {
      out[31] |= (byte) 0x80;
    }
    return out;
  }
}
