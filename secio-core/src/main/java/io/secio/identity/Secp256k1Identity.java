package io.secio.identity;

import io.secio.crypto.EcKeySpecs;
import io.secio.crypto.EcdsaSignature;
import io.secio.crypto.Primitive;
import java.math.BigInteger;
import java.security.InvalidKeyException;
import java.security.SecureRandom;
import java.security.SignatureException;
import java.security.spec.ECPrivateKeySpec;
import java.security.spec.ECPublicKeySpec;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;
import org.bouncycastle.util.BigIntegers;

/**
 * Secp256k1 identities: {@code PublicKey.Data} is the 33-byte compressed SEC1 point,
 * {@code PrivateKey.Data} the 32-byte scalar. Signatures are ECDSA over SHA-256(m), strict DER,
 * deterministic (RFC 6979) and low-S; verification rejects high-S, as js-libp2p-secio does. Signing
 * and verifying run on the caller's backend ({@link Primitive#ECDSA_SECP256K1}); every backend runs
 * Bouncy Castle's code for this curve, which neither the JDK (since 16) nor BoringSSL has.
 */
final class Secp256k1Identity implements KeyScheme {
  static final Secp256k1Identity INSTANCE = new Secp256k1Identity();

  private static final X9ECParameters CURVE = CustomNamedCurves.getByName("secp256k1");
  private static final ECDomainParameters DOMAIN = new ECDomainParameters(CURVE);
  private static final BigInteger ORDER = DOMAIN.getN();
  private static final BigInteger HALF_ORDER = ORDER.shiftRight(1);
  private static final int SCALAR_SIZE_IN_BYTES = 32;
  private static final int COMPRESSED_POINT_SIZE_IN_BYTES = 33;

  private Secp256k1Identity() {}

  @Override
  public Verifier publicKey(byte[] publicData) throws InvalidKeyException {
    ECPoint point = decodeCompressed(publicData).normalize();
    ECPublicKeySpec key = new ECPublicKeySpec(new java.security.spec.ECPoint(
        point.getAffineXCoord().toBigInteger(), point.getAffineYCoord().toBigInteger()),
        EcKeySpecs.SECP256K1);
    return (backend, message, signature) -> {
      EcdsaSignature rs = EcdsaSignature.fromDer(signature);
      if (!inRange(rs.r()) || !inRange(rs.s()) || rs.s().compareTo(HALF_ORDER) > 0) {
        throw new SignatureException("r or s out of range, or s is high");
      }
      return backend.verify(Primitive.ECDSA_SECP256K1, key, message, signature);
    };
  }

  @Override
  public SigningKey privateKey(byte[] privateData) throws InvalidKeyException {
    if (privateData.length != SCALAR_SIZE_IN_BYTES) {
      throw new InvalidKeyException("secp256k1 private key must be 32 bytes");
    }
    BigInteger d = new BigInteger(1, privateData);
    if (!inRange(d)) {
      throw new InvalidKeyException("secp256k1 private key out of range");
    }
    return signingKey(d);
  }

  @Override
  public SigningKey generate(SecureRandom random) {
    BigInteger d =
        BigIntegers.createRandomInRange(BigInteger.ONE, ORDER.subtract(BigInteger.ONE), random);
    return signingKey(d);
  }

  private static SigningKey signingKey(BigInteger d) {
    byte[] publicData = new FixedPointCombMultiplier().multiply(DOMAIN.getG(), d).getEncoded(true);
    byte[] privateData = BigIntegers.asUnsignedByteArray(SCALAR_SIZE_IN_BYTES, d);
    return new SigningKey(privateData, publicData, Primitive.ECDSA_SECP256K1,
        new ECPrivateKeySpec(d, EcKeySpecs.SECP256K1));
  }

  private static ECPoint decodeCompressed(byte[] publicData) throws InvalidKeyException {
    if (publicData.length != COMPRESSED_POINT_SIZE_IN_BYTES
        || (publicData[0] != 0x02 && publicData[0] != 0x03)) {
      throw new InvalidKeyException("secp256k1 public key must be a 33-byte compressed point");
    }
    ECPoint point;
    try {
      // Rejects x >= p and an x with no point on the curve.
      point = CURVE.getCurve().decodePoint(publicData);
    } catch (IllegalArgumentException e) {
      throw new InvalidKeyException("secp256k1 public key is not on the curve", e);
    }
    if (point.isInfinity() || !point.isValid()) {
      throw new InvalidKeyException("secp256k1 public key is not a valid point");
    }
    return point;
  }

  private static boolean inRange(BigInteger value) {
    return value.signum() > 0 && value.compareTo(ORDER) < 0;
  }
}
