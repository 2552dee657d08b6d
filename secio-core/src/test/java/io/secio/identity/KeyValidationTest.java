package io.secio.identity;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.secio.SecioException;
import io.secio.testing.Hex;
import java.io.IOException;
import java.math.BigInteger;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.Arrays;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1Object;
import org.bouncycastle.asn1.DERBitString;
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
    assertPrivateKeyRefused(KeyType.RSA, pkcs1((RSAPrivateCrtKey) pair.getPrivate()));
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
    assertPublicKeyRefused(KeyType.SECP256K1, IdentityKeyVectorsTest.concat(good, new byte[32]));

    byte[] xIsP = IdentityKeyVectorsTest.concat(new byte[] {0x02}, unsigned32(SECP256K1_P));
    assertPublicKeyRefused(KeyType.SECP256K1, xIsP);
    byte[] noPoint = IdentityKeyVectorsTest.concat(new byte[] {0x02}, unsigned32(xWithoutPoint()));
    assertPublicKeyRefused(KeyType.SECP256K1, noPoint);
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
