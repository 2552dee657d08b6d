package io.secio.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.SecureRandom;
import java.security.interfaces.ECPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.util.BigIntegers;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The curve arithmetic every backend shares: the DER wrapping of a peer's point, which the key
 * agreement hands to every provider, the range of a private scalar, and the encoding of a
 * provider's public point.
 */
class NistCurveTest {
  private static final int POINTS_PER_CURVE = 20;

  @ParameterizedTest
  @EnumSource(NistCurve.class)
  void publicKeyInfoIsTheDerEncoderOutputAndParsesToThePoint(NistCurve curve) throws Exception {
    SecureRandom random = new SecureRandom(new byte[] {(byte) curve.ordinal()});
    BigInteger n = CustomNamedCurves.getByName(jcaName(curve)).getN();
    AlgorithmIdentifier algorithm = new AlgorithmIdentifier(
        X9ObjectIdentifiers.id_ecPublicKey,
        CustomNamedCurves.getOID(jcaName(curve)));
    KeyFactory jdk = KeyFactory.getInstance("EC", "SunEC");
    for (int i = 0; i < POINTS_PER_CURVE; i++) {
      BigInteger d = new BigInteger(n.bitLength() + 64, random).mod(n.subtract(BigInteger.ONE)).add(BigInteger.ONE);
      byte[] point = curve.publicKeyOf(d);

      byte[] info = curve.subjectPublicKeyInfo(point);

      assertArrayEquals(new SubjectPublicKeyInfo(algorithm, point).getEncoded(), info);
      ECPublicKey parsed = (ECPublicKey) jdk.generatePublic(new X509EncodedKeySpec(info));
      ECPoint expected = curve.decodeRemote(point);
      assertEquals(expected.getAffineXCoord().toBigInteger(), parsed.getW().getAffineX());
      assertEquals(expected.getAffineYCoord().toBigInteger(), parsed.getW().getAffineY());
    }
  }

  @ParameterizedTest
  @EnumSource(NistCurve.class)
  void aPrivateScalarMustLieInOneToNMinusOne(NistCurve curve) throws Exception {
    BigInteger n = order(curve);
    int size = (n.bitLength() + 7) / 8;

    BigInteger one = BigInteger.ONE;
    assertEquals(one, curve.scalar(BigIntegers.asUnsignedByteArray(size, one)));
    assertEquals(n.subtract(one),
        curve.scalar(BigIntegers.asUnsignedByteArray(size, n.subtract(one))));
    assertThrows(InvalidKeyException.class, () -> curve.scalar(new byte[size]), "zero");
    assertThrows(InvalidKeyException.class,
        () -> curve.scalar(BigIntegers.asUnsignedByteArray(size, n)), "n");
    assertThrows(InvalidKeyException.class,
        () -> curve.scalar(BigIntegers.asUnsignedByteArray(size, n.add(one))), "n + 1");
  }

  @ParameterizedTest
  @EnumSource(NistCurve.class)
  void aProviderPointIsEncodedUncompressedWithFullWidthCoordinates(NistCurve curve)
      throws Exception {
    int f = curve.fieldSizeInBytes();
    // Small x and y: both coordinates need left padding to the field size.
    java.security.spec.ECPoint small =
        new java.security.spec.ECPoint(BigInteger.valueOf(0x0102), BigInteger.valueOf(3));
    byte[] expected = new byte[1 + 2 * f];
    expected[0] = 4;
    expected[f - 1] = 1;
    expected[f] = 2;
    expected[2 * f] = 3;
    assertArrayEquals(expected, curve.encode(small));

    // Zero is a coordinate like any other (x = 0 lies on none of these curves, but encode does not
    // judge the curve).
    byte[] zeros = curve.encode(new java.security.spec.ECPoint(BigInteger.ZERO, BigInteger.ZERO));
    byte[] uncompressedZero = new byte[1 + 2 * f];
    uncompressedZero[0] = 4;
    assertArrayEquals(uncompressedZero, zeros);

    // Coordinates that fill every bit of the field size are still accepted.
    BigInteger widest = BigInteger.ONE.shiftLeft(8 * f).subtract(BigInteger.ONE);
    byte[] full = curve.encode(new java.security.spec.ECPoint(widest, widest));
    byte[] ones = new byte[2 * f];
    Arrays.fill(ones, (byte) 0xff);
    assertArrayEquals(ones, Arrays.copyOfRange(full, 1, full.length));
  }

  @ParameterizedTest
  @EnumSource(NistCurve.class)
  void whatIsNotAnAffinePointOfTheFieldSizeIsRefused(NistCurve curve) {
    int f = curve.fieldSizeInBytes();
    BigInteger tooWide = BigInteger.ONE.shiftLeft(8 * f);
    BigInteger one = BigInteger.ONE;
    BigInteger minusOne = BigInteger.ONE.negate();
    for (java.security.spec.ECPoint p : new java.security.spec.ECPoint[] {
        java.security.spec.ECPoint.POINT_INFINITY,
        new java.security.spec.ECPoint(tooWide, one),
        new java.security.spec.ECPoint(one, tooWide),
        new java.security.spec.ECPoint(minusOne, one),
        new java.security.spec.ECPoint(one, minusOne)}) {
      assertThrows(InvalidKeyException.class, () -> curve.encode(p), String.valueOf(p));
    }
  }

  @ParameterizedTest
  @EnumSource(NistCurve.class)
  void aPublicKeyInfoOfAnyOtherLengthComesFromTheDerEncoder(NistCurve curve) throws Exception {
    AlgorithmIdentifier algorithm = new AlgorithmIdentifier(
        X9ObjectIdentifiers.id_ecPublicKey, CustomNamedCurves.getOID(jcaName(curve)));
    int size = 1 + 2 * curve.fieldSizeInBytes();
    for (int length : new int[] {size - 1, size + 1, 1 + curve.fieldSizeInBytes()}) {
      byte[] bytes = new byte[length];
      bytes[0] = 4;
      bytes[length - 1] = 9;

      assertArrayEquals(new SubjectPublicKeyInfo(algorithm, bytes).getEncoded(),
          curve.subjectPublicKeyInfo(bytes), "length " + length);
    }
  }

  @ParameterizedTest
  @EnumSource(NistCurve.class)
  void eachCurveBelongsToItsExchange(NistCurve curve) {
    assertEquals(curve, NistCurve.of(curve.exchange()));
    assertEquals(curve.exchange().fieldSizeInBytes(), curve.fieldSizeInBytes());
    assertEquals(jcaName(curve), curve.generatorParameters().getName());
    assertEquals(curve.exchange().wireName() + " (" + CustomNamedCurves.getOID(jcaName(curve)) + ")",
        curve.toString());
    assertThrows(IllegalArgumentException.class,
        () -> NistCurve.of(io.secio.protocol.ExchangeAlgorithm.X25519));
  }

  private static BigInteger order(NistCurve curve) {
    return CustomNamedCurves.getByName(jcaName(curve)).getN();
  }

  private static String jcaName(NistCurve curve) {
    switch (curve) {
      case P_256:
        return "secp256r1";
      case P_384:
        return "secp384r1";
      default:
        return "secp521r1";
    }
  }
}
