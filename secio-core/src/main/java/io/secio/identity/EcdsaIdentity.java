package io.secio.identity;

import io.secio.crypto.EcdsaSignature;
import io.secio.crypto.JdkKeys;
import io.secio.crypto.Primitive;
import java.io.IOException;
import java.math.BigInteger;
import java.security.InvalidKeyException;
import java.security.SecureRandom;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPrivateKeySpec;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1Object;
import org.bouncycastle.asn1.DERBitString;
import org.bouncycastle.asn1.sec.SECObjectIdentifiers;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;
import org.bouncycastle.util.BigIntegers;

/**
 * ECDSA identities, P-256 only: {@code PublicKey.Data} is a DER SubjectPublicKeyInfo, {@code
 * PrivateKey.Data} a DER SEC1 ECPrivateKey (RFC 5915, written with curve and public key as go-libp2p
 * does); signatures are ECDSA over SHA-256(m), DER. Signing and verifying run on the caller's backend
 * ({@link Primitive#ECDSA_P256}), after the signature's DER is checked strictly here. The JDK's SunEC
 * decodes and encodes public keys ({@link JdkKeys}); Bouncy Castle reads and writes SEC1 and derives a public key from
 * a scalar, which the JDK cannot.
 */
final class EcdsaIdentity implements KeyScheme {
  static final EcdsaIdentity INSTANCE = new EcdsaIdentity();

  private static final String CURVE_NAME = "secp256r1";
  private static final ECParameterSpec P256 = JdkKeys.ecParameters(CURVE_NAME);
  private static final X9ECParameters P256_MATH = CustomNamedCurves.getByName(CURVE_NAME);
  private static final ECDomainParameters P256_DOMAIN = new ECDomainParameters(P256_MATH);
  private static final int SCALAR_SIZE_IN_BYTES = 32;

  private EcdsaIdentity() {}

  @Override
  public Verifier publicKey(byte[] publicData) throws InvalidKeyException {
    ECPublicKey key;
    try {
      key = (ECPublicKey) JdkKeys.ecKeyFactory().generatePublic(new X509EncodedKeySpec(publicData));
    } catch (InvalidKeySpecException | ClassCastException e) {
      throw new InvalidKeyException("not an EC SubjectPublicKeyInfo", e);
    }
    // The key's bytes are its peer id: only the one DER encoding (named curve, uncompressed).
    if (!Arrays.equals(key.getEncoded(), publicData)) {
      throw new InvalidKeyException("EC public key is not in DER form");
    }
    if (!isP256(key.getParams())) {
      throw new InvalidKeyException("ECDSA identity keys must be on P-256");
    }
    onCurve(key.getW());
    ECPublicKeySpec spec = new ECPublicKeySpec(key.getW(), P256);
    // Strict DER here, whatever the backend: SunEC would take a BER s (Wycheproof 6).
    return (backend, message, signature) -> {
      EcdsaSignature.fromDer(signature);
      return backend.verify(Primitive.ECDSA_P256, spec, message, signature);
    };
  }

  @Override
  public SigningKey privateKey(byte[] privateData) throws InvalidKeyException {
    org.bouncycastle.asn1.sec.ECPrivateKey sec1;
    try {
      sec1 = org.bouncycastle.asn1.sec.ECPrivateKey.getInstance(privateData);
      if (!Arrays.equals(sec1.getEncoded(ASN1Encoding.DER), privateData)) {
        throw new InvalidKeyException("EC private key is not in DER form");
      }
    } catch (IllegalArgumentException | IOException e) {
      throw new InvalidKeyException("not a SEC1 ECPrivateKey", e);
    }
    ASN1Object curve = sec1.getParametersObject();
    if (curve != null && !SECObjectIdentifiers.secp256r1.equals(curve)) {
      throw new InvalidKeyException("ECDSA identity keys must be on P-256");
    }
    if (sec1.getPrivateKey().getOctets().length > SCALAR_SIZE_IN_BYTES) {
      throw new InvalidKeyException("EC private key longer than 32 bytes");
    }
    BigInteger d = sec1.getKey();
    if (d.signum() <= 0 || d.compareTo(P256.getOrder()) >= 0) {
      throw new InvalidKeyException("EC private key out of range");
    }
    ECPoint w = multiplyGenerator(d);
    if (sec1.getPublicKey() != null
        && !Arrays.equals(sec1.getPublicKey().getOctets(), uncompressed(w))) {
      throw new InvalidKeyException("EC public key does not match the private key");
    }
    return signingKey(d, w);
  }

  @Override
  public SigningKey generate(SecureRandom random) {
    BigInteger d = BigIntegers.createRandomInRange(
        BigInteger.ONE, P256.getOrder().subtract(BigInteger.ONE), random);
    return signingKey(d, multiplyGenerator(d));
  }

  private static SigningKey signingKey(BigInteger d, ECPoint w) {
    byte[] privateData;
    byte[] publicData;
    try {
      privateData = new org.bouncycastle.asn1.sec.ECPrivateKey(
              SCALAR_SIZE_IN_BYTES * 8, d, new DERBitString(uncompressed(w)),
              SECObjectIdentifiers.secp256r1)
          .getEncoded(ASN1Encoding.DER);
      publicData = JdkKeys.ecKeyFactory().generatePublic(new ECPublicKeySpec(w, P256)).getEncoded();
    } catch (IOException | InvalidKeySpecException e) {
      throw new IllegalStateException("cannot encode a P-256 key", e);
    }
    return new SigningKey(privateData, publicData, Primitive.ECDSA_P256, new ECPrivateKeySpec(d, P256));
  }

  private static ECPoint multiplyGenerator(BigInteger d) {
    org.bouncycastle.math.ec.ECPoint p =
        new FixedPointCombMultiplier().multiply(P256_MATH.getG(), d).normalize();
    return new ECPoint(p.getAffineXCoord().toBigInteger(), p.getAffineYCoord().toBigInteger());
  }

  /** {@code 0x04 || X || Y}, each coordinate left-padded to 32 bytes. */
  private static byte[] uncompressed(ECPoint w) {
    byte[] out = new byte[1 + 2 * SCALAR_SIZE_IN_BYTES];
    out[0] = 0x04;
    copyPadded(w.getAffineX(), out, 1);
    copyPadded(w.getAffineY(), out, 1 + SCALAR_SIZE_IN_BYTES);
    return out;
  }

  private static void copyPadded(BigInteger value, byte[] out, int offset) {
    byte[] bytes = value.toByteArray();
    int length = Math.min(bytes.length, SCALAR_SIZE_IN_BYTES);
    int padding = SCALAR_SIZE_IN_BYTES - length;
    System.arraycopy(bytes, bytes.length - length, out, offset + padding, length);
  }

  /** The JDK does not check that an imported point lies on the curve; Bouncy Castle does. */
  private static ECPublicKeyParameters onCurve(ECPoint w) throws InvalidKeyException {
    if (ECPoint.POINT_INFINITY.equals(w)) {
      throw new InvalidKeyException("EC public key is the point at infinity");
    }
    try {
      return new ECPublicKeyParameters(
          P256_MATH.getCurve().validatePoint(w.getAffineX(), w.getAffineY()), P256_DOMAIN);
    } catch (IllegalArgumentException e) {
      throw new InvalidKeyException("EC public key is not on P-256", e);
    }
  }

  private static boolean isP256(ECParameterSpec params) {
    return P256.getCurve().equals(params.getCurve())
        && P256.getGenerator().equals(params.getGenerator())
        && P256.getOrder().equals(params.getOrder())
        && P256.getCofactor() == params.getCofactor();
  }
}
