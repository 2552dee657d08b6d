package io.secio.identity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.protocol.SecioException;
import io.secio.testing.Hex;
import java.io.IOException;
import java.math.BigInteger;
import java.security.AlgorithmParameters;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.Arrays;
import org.bouncycastle.asn1.ASN1EncodableVector;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1Object;
import org.bouncycastle.asn1.DERBitString;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.pkcs.RSAPrivateKey;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.asn1.sec.SECObjectIdentifiers;
import org.junit.jupiter.api.Test;

/** Public keys that are not keys, and private keys that do not hold together, are refused on import. */
class KeyValidationTest {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final BigInteger SECP256K1_P = new BigInteger(
      "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f", 16);
  private static final BigInteger P256_N = new BigInteger(
      "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", 16);
  private static final BigInteger SECP256K1_N = new BigInteger(
      "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141", 16);

  private static void assertPublicKeyRefused(KeyType type, byte[] data) {
    SecioException e = assertThrows(SecioException.class,
        () -> IdentityPublicKey.fromProtobuf(KeyProtobufs.encode(type, data)), Hex.encode(data));
    assertEquals(SecioException.Reason.MALFORMED_MESSAGE, e.reason());
  }

  private static void assertPrivateKeyRefused(KeyType type, byte[] data) {
    assertThrows(IllegalArgumentException.class,
        () -> IdentityKeyPair.fromProtobuf(KeyProtobufs.encode(type, data)));
  }

  // RSA

  @Test
  void rsa1024IsRefused() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(1024, RANDOM);
    KeyPair pair = generator.generateKeyPair();
    assertPublicKeyRefused(KeyType.RSA, pair.getPublic().getEncoded());
    byte[] pkcs1 = pkcs1((RSAPrivateCrtKey) pair.getPrivate());
    assertPrivateKeyRefused(KeyType.RSA, pkcs1);
    // The scheme itself refuses it, before any provider builds the key.
    assertThrows(InvalidKeyException.class, () -> RsaIdentity.INSTANCE.privateKey(pkcs1));
  }

  @Test
  void rsaModulusSizeBoundsAre2048And8192() throws Exception {
    assertDoesNotThrow(() -> IdentityPublicKey.fromProtobuf(
        KeyProtobufs.encode(KeyType.RSA, rsaPublicKey(2048, BigInteger.valueOf(65537)))));
    assertPublicKeyRefused(KeyType.RSA, rsaPublicKey(2047, BigInteger.valueOf(65537)));
    assertDoesNotThrow(() -> IdentityPublicKey.fromProtobuf(
        KeyProtobufs.encode(KeyType.RSA, rsaPublicKey(8192, BigInteger.valueOf(65537)))));
    assertPublicKeyRefused(KeyType.RSA, rsaPublicKey(8193, BigInteger.valueOf(65537)));
  }

  @Test
  void rsaOddSmallPublicExponentOnly() throws Exception {
    assertDoesNotThrow(() -> IdentityPublicKey.fromProtobuf(
        KeyProtobufs.encode(KeyType.RSA, rsaPublicKey(2048, BigInteger.valueOf(3)))));
    assertPublicKeyRefused(KeyType.RSA, rsaPublicKey(2048, BigInteger.valueOf(65538)));
    BigInteger huge = BigInteger.ONE.shiftLeft(40).add(BigInteger.ONE);
    assertPublicKeyRefused(KeyType.RSA, rsaPublicKey(2048, huge));
  }

  @Test
  void rsaPublicExponentsOfUpTo31Bits() throws Exception {
    BigInteger largest = BigInteger.ONE.shiftLeft(31).subtract(BigInteger.ONE);
    assertDoesNotThrow(() -> IdentityPublicKey.fromProtobuf(
        KeyProtobufs.encode(KeyType.RSA, rsaPublicKey(2048, largest))));
    assertPublicKeyRefused(KeyType.RSA, rsaPublicKey(2048, largest.add(BigInteger.TWO)));
  }

  @Test
  void rsaPrivateKeyMustBeExactDerOfVersionZero() {
    byte[] der = KeyProtobufs.dataOf(IdentityKeyPair.generate(KeyType.RSA, RANDOM).toProtobuf());
    // The outer length (82 xx xx) in a non-minimal long form (83 00 xx xx).
    assertEquals("3082", Hex.encode(der).substring(0, 4));
    assertPrivateKeyRefused(KeyType.RSA, IdentityKeyVectorsTest.concat(
        new byte[] {0x30, (byte) 0x83, 0x00}, Arrays.copyOfRange(der, 2, der.length)));
    // The same two-prime key, labelled version 1 (multi-prime): refused, not read as two-prime.
    RSAPrivateKey key = RSAPrivateKey.getInstance(der);
    ASN1EncodableVector fields = new ASN1EncodableVector();
    fields.add(new ASN1Integer(1));
    for (BigInteger field : new BigInteger[] {key.getModulus(), key.getPublicExponent(),
        key.getPrivateExponent(), key.getPrime1(), key.getPrime2(), key.getExponent1(),
        key.getExponent2(), key.getCoefficient()}) {
      fields.add(new ASN1Integer(field));
    }
    assertPrivateKeyRefused(KeyType.RSA, encode(new DERSequence(fields)));
  }

  @Test
  void rsaPublicKeyMustBeExactDer() {
    byte[] spki = IdentityKeyPair.generate(KeyType.RSA, RANDOM).publicKey().toProtobuf();
    byte[] der = KeyProtobufs.dataOf(spki);
    assertPublicKeyRefused(KeyType.RSA, IdentityKeyVectorsTest.concat(der, new byte[] {0}));
    // The outer length (82 01 22) in a non-minimal long form (83 00 01 22).
    assertEquals("30820122", Hex.encode(der).substring(0, 8));
    byte[] longForm = IdentityKeyVectorsTest.concat(
        new byte[] {0x30, (byte) 0x83, 0x00}, Arrays.copyOfRange(der, 2, der.length));
    assertPublicKeyRefused(KeyType.RSA, longForm);
  }

  @Test
  void rsaPrivateKeyWhoseCrtPartsDisagreeIsRefused() {
    IdentityKeyPair pair = IdentityKeyPair.generate(KeyType.RSA, RANDOM);
    RSAPrivateKey key = RSAPrivateKey.getInstance(KeyProtobufs.dataOf(pair.toProtobuf()));
    byte[] badCoefficient = encode(new RSAPrivateKey(key.getModulus(), key.getPublicExponent(),
        key.getPrivateExponent(), key.getPrime1(), key.getPrime2(), key.getExponent1(),
        key.getExponent2(), key.getCoefficient().add(BigInteger.ONE)));
    assertPrivateKeyRefused(KeyType.RSA, badCoefficient);
  }

  // ECDSA (P-256)

  @Test
  void ecdsaKeysOnOtherCurvesAreRefused() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp384r1"), RANDOM);
    assertPublicKeyRefused(KeyType.ECDSA, generator.generateKeyPair().getPublic().getEncoded());
    assertPrivateKeyRefused(KeyType.ECDSA, encode(
        new ECPrivateKey(256, BigInteger.TEN, SECObjectIdentifiers.secp384r1)));
  }

  @Test
  void aP256PointUnderAnotherCurvesNameIsRefused() throws Exception {
    // SunEC does not check that a point lies on the curve its key names.
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
    ECPoint p256Point = ((ECPublicKey) generator.generateKeyPair().getPublic()).getW();
    AlgorithmParameters p384 = AlgorithmParameters.getInstance("EC");
    p384.init(new ECGenParameterSpec("secp384r1"));
    byte[] labelledP384 = KeyFactory.getInstance("EC").generatePublic(
        new ECPublicKeySpec(p256Point, p384.getParameterSpec(ECParameterSpec.class))).getEncoded();
    assertPublicKeyRefused(KeyType.ECDSA, labelledP384);
  }

  @Test
  void ecdsaKeysMustBeExactDer() {
    IdentityKeyPair pair = IdentityKeyPair.generate(KeyType.ECDSA, RANDOM);
    // SunEC reads a SubjectPublicKeyInfo and ignores a byte after it; the peer id would hash it.
    byte[] spki = KeyProtobufs.dataOf(pair.publicKey().toProtobuf());
    assertPublicKeyRefused(KeyType.ECDSA, IdentityKeyVectorsTest.concat(spki, new byte[] {0}));
    // The SEC1 outer length (30 77) in a non-minimal long form (30 81 77).
    byte[] sec1 = KeyProtobufs.dataOf(pair.toProtobuf());
    assertEquals("3077", Hex.encode(sec1).substring(0, 4));
    assertPrivateKeyRefused(KeyType.ECDSA, IdentityKeyVectorsTest.concat(
        new byte[] {0x30, (byte) 0x81}, Arrays.copyOfRange(sec1, 1, sec1.length)));
  }

  @Test
  void ecdsaCoordinatesWithALeadingZeroByteAreWrittenPadded() {
    // Scalar 379: the x of its public point is under 2^248, so its first byte is zero.
    IdentityKeyPair pair = IdentityKeyPair.fromProtobuf(KeyProtobufs.encode(KeyType.ECDSA, encode(
        new ECPrivateKey(256, BigInteger.valueOf(379), SECObjectIdentifiers.secp256r1))));
    byte[] spki = KeyProtobufs.dataOf(pair.publicKey().toProtobuf());
    byte[] point = Arrays.copyOfRange(spki, spki.length - 65, spki.length);
    assertEquals("0400", Hex.encode(point).substring(0, 4));
    ECPrivateKey sec1 = ECPrivateKey.getInstance(KeyProtobufs.dataOf(pair.toProtobuf()));
    assertArrayEquals(point, sec1.getPublicKey().getOctets(), "SEC1 carries the same point");
  }

  @Test
  void ecdsaPointOffTheCurveIsRefused() {
    byte[] spki = KeyProtobufs.dataOf(
        IdentityKeyPair.generate(KeyType.ECDSA, RANDOM).publicKey().toProtobuf());
    spki[spki.length - 1] ^= 1;
    assertPublicKeyRefused(KeyType.ECDSA, spki);
  }

  @Test
  void ecdsaPrivateScalarOutOfRangeOrMismatchedIsRefused() {
    assertPrivateKeyRefused(KeyType.ECDSA, encode(
        new ECPrivateKey(256, BigInteger.ZERO, SECObjectIdentifiers.secp256r1)));
    assertPrivateKeyRefused(KeyType.ECDSA, encode(
        new ECPrivateKey(256, P256_N, SECObjectIdentifiers.secp256r1)));
    assertPrivateKeyRefused(KeyType.ECDSA, encode(
        new ECPrivateKey(264, BigInteger.TEN, SECObjectIdentifiers.secp256r1)));
    // The public key of scalar 1 (the generator) written next to scalar 2.
    byte[] generator = Hex.decode("046b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"
        + "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5");
    DERBitString publicKey = new DERBitString(generator);
    assertDoesNotThrow(() -> IdentityKeyPair.fromProtobuf(KeyProtobufs.encode(KeyType.ECDSA, encode(
        new ECPrivateKey(256, BigInteger.ONE, publicKey, SECObjectIdentifiers.secp256r1)))));
    assertPrivateKeyRefused(KeyType.ECDSA, encode(
        new ECPrivateKey(256, BigInteger.TWO, publicKey, SECObjectIdentifiers.secp256r1)));
  }

  // secp256k1

  @Test
  void secp256k1AcceptsOnlyCompressedPointsOnTheCurve() {
    byte[] good = KeyProtobufs.dataOf(
        IdentityKeyPair.generate(KeyType.SECP256K1, RANDOM).publicKey().toProtobuf());
    byte[] wrongPrefix = good.clone();
    wrongPrefix[0] = 0x04;
    assertPublicKeyRefused(KeyType.SECP256K1, wrongPrefix);
    SecioException e = assertThrows(SecioException.class,
        () -> IdentityPublicKey.fromProtobuf(KeyProtobufs.encode(KeyType.SECP256K1, wrongPrefix)));
    assertTrue(e.getMessage().contains("compressed point"), e.getMessage());
    assertPublicKeyRefused(KeyType.SECP256K1, IdentityKeyVectorsTest.concat(good, new byte[32]));

    byte[] xIsP = IdentityKeyVectorsTest.concat(new byte[] {0x02}, unsigned32(SECP256K1_P));
    assertPublicKeyRefused(KeyType.SECP256K1, xIsP);
    byte[] noPoint = IdentityKeyVectorsTest.concat(new byte[] {0x02}, unsigned32(xWithoutPoint()));
    assertPublicKeyRefused(KeyType.SECP256K1, noPoint);
  }

  @Test
  void secp256k1PrivateKeysAre32BytesAndInRange() {
    for (int length : new int[] {31, 33}) {
      byte[] one = new byte[length];
      one[length - 1] = 1;
      assertPrivateKeyRefused(KeyType.SECP256K1, one);
    }
    BigInteger[] outOfRange = {BigInteger.ZERO, SECP256K1_N, SECP256K1_N.add(BigInteger.ONE),
        BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE)};
    for (BigInteger d : outOfRange) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> IdentityKeyPair.fromProtobuf(KeyProtobufs.encode(KeyType.SECP256K1, unsigned32(d))),
          d.toString(16));
      assertTrue(e.getMessage().contains("out of range"), e.getMessage());
    }
    for (BigInteger d : new BigInteger[] {BigInteger.ONE, SECP256K1_N.subtract(BigInteger.ONE)}) {
      assertDoesNotThrow(
          () -> IdentityKeyPair.fromProtobuf(KeyProtobufs.encode(KeyType.SECP256K1, unsigned32(d))));
    }
  }

  /** An x for which x^3 + 7 is not a square mod p (Euler's criterion): no point has it. */
  private static BigInteger xWithoutPoint() {
    BigInteger exponent = SECP256K1_P.subtract(BigInteger.ONE).shiftRight(1);
    for (BigInteger x = BigInteger.ONE; ; x = x.add(BigInteger.ONE)) {
      BigInteger rhs = x.pow(3).add(BigInteger.valueOf(7)).mod(SECP256K1_P);
      if (rhs.modPow(exponent, SECP256K1_P).equals(SECP256K1_P.subtract(BigInteger.ONE))) {
        return x;
      }
    }
  }

  // Ed25519

  @Test
  void ed25519SmallOrderAndNonCanonicalKeysAreRefused() {
    // The neutral element (0, 1): small order, so anyone could sign for it.
    assertPublicKeyRefused(KeyType.ED25519,
        Hex.decode("0100000000000000000000000000000000000000000000000000000000000000"));
    // y = p = 2^255 - 19, a non-canonical encoding of y = 0.
    assertPublicKeyRefused(KeyType.ED25519,
        Hex.decode("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"));
  }

  private static byte[] rsaPublicKey(int bits, BigInteger exponent) throws Exception {
    BigInteger modulus = new BigInteger(bits, RANDOM).setBit(bits - 1).setBit(0);
    return KeyFactory.getInstance("RSA")
        .generatePublic(new RSAPublicKeySpec(modulus, exponent))
        .getEncoded();
  }

  private static byte[] pkcs1(RSAPrivateCrtKey key) {
    return encode(new RSAPrivateKey(key.getModulus(), key.getPublicExponent(),
        key.getPrivateExponent(), key.getPrimeP(), key.getPrimeQ(), key.getPrimeExponentP(),
        key.getPrimeExponentQ(), key.getCrtCoefficient()));
  }

  private static byte[] encode(ASN1Object object) {
    try {
      return object.getEncoded(ASN1Encoding.DER);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static byte[] unsigned32(BigInteger value) {
    byte[] out = new byte[32];
    byte[] bytes = value.toByteArray();
    int length = Math.min(bytes.length, 32);
    System.arraycopy(bytes, bytes.length - length, out, 32 - length, length);
    return out;
  }
}
