package io.secio.crypto;

import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.SecioException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.security.InvalidKeyException;
import java.security.SecureRandom;
import java.security.spec.ECGenParameterSpec;
import java.util.Arrays;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.asn1.sec.SECObjectIdentifiers;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.math.ec.ECCurve;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;
import org.bouncycastle.util.BigIntegers;

/**
 * A NIST prime curve as secio uses it (docs/PROTOCOL.md section 7): strict decoding of a peer's uncompressed
 * {@code epubkey}, public points of local scalars or of a provider's generated keys, and the DER
 * wrappings every JCA provider reads. All curve math is Bouncy Castle's, so a peer's point is judged
 * the same way whatever backend then does the key agreement.
 *
 * <p>Immutable and thread-safe.
 */
enum NistCurve {
  P_256(ExchangeAlgorithm.P_256, SECObjectIdentifiers.secp256r1, "secp256r1"),
  P_384(ExchangeAlgorithm.P_384, SECObjectIdentifiers.secp384r1, "secp384r1"),
  P_521(ExchangeAlgorithm.P_521, SECObjectIdentifiers.secp521r1, "secp521r1");

  private static final byte UNCOMPRESSED_POINT_PREFIX = 0x04;

  private final ExchangeAlgorithm exchange;
  private final ASN1ObjectIdentifier oid;
  private final X9ECParameters parameters;
  private final AlgorithmIdentifier keyAlgorithm;
  /** The standard name JDK, Conscrypt and Bouncy Castle key pair generators all know. */
  private final String jcaName;
  /** The DER SubjectPublicKeyInfo of an uncompressed point up to the point's own bytes. */
  private final byte[] publicKeyInfoPrefix;

  NistCurve(ExchangeAlgorithm exchange, ASN1ObjectIdentifier oid, String jcaName) {
    this.exchange = exchange;
    this.oid = oid;
    this.jcaName = jcaName;
    this.parameters = CustomNamedCurves.getByOID(oid);
    this.keyAlgorithm = new AlgorithmIdentifier(X9ObjectIdentifiers.id_ecPublicKey, oid);
    int pointSize = exchange.publicKeySizeInBytes();
    byte[] template = encodeSubjectPublicKeyInfo(new byte[pointSize]);
    this.publicKeyInfoPrefix = Arrays.copyOf(template, template.length - pointSize);
  }

  /** The curve of a NIST exchange. */
  static NistCurve of(ExchangeAlgorithm exchange) {
    for (NistCurve c : values()) {
      if (c.exchange == exchange) {
        return c;
      }
    }
    throw new IllegalArgumentException("not a NIST curve: " + exchange);
  }

  ExchangeAlgorithm exchange() {
    return exchange;
  }

  int fieldSizeInBytes() {
    return exchange.fieldSizeInBytes();
  }

  /**
   * Checks a peer's {@code epubkey} before any key agreement: exactly {@code 1 + 2 * fieldSize} bytes,
   * the uncompressed prefix {@code 0x04} (compressed and hybrid forms are refused), both coordinates
   * below p, on the curve and not the point at infinity. The cofactor of these curves is 1, so a
   * point on the curve lies in the prime-order group.
   */
  ECPoint decodeRemote(byte[] epubkey) throws SecioException {
    int f = fieldSizeInBytes();
    if (epubkey == null || epubkey.length != exchange.publicKeySizeInBytes()) {
      throw bad("wrong length for " + exchange.wireName());
    }
    if (epubkey[0] != UNCOMPRESSED_POINT_PREFIX) {
      throw bad("not an uncompressed point");
    }
    BigInteger x = new BigInteger(1, Arrays.copyOfRange(epubkey, 1, 1 + f));
    BigInteger y = new BigInteger(1, Arrays.copyOfRange(epubkey, 1 + f, 1 + 2 * f));
    ECCurve curve = parameters.getCurve();
    BigInteger p = curve.getField().getCharacteristic();
    if (x.compareTo(p) >= 0 || y.compareTo(p) >= 0) {
      throw bad("coordinate not below the field prime");
    }
    ECPoint point;
    try {
      point = curve.validatePoint(x, y);
    } catch (IllegalArgumentException e) {
      throw bad("point not on " + exchange.wireName());
    }
    if (point.isInfinity()) {
      throw bad("point at infinity");
    }
    return point;
  }

  /** The scalar of a big-endian private key, which must lie in [1, n - 1]. */
  BigInteger scalar(byte[] bigEndian) throws InvalidKeyException {
    BigInteger d = new BigInteger(1, bigEndian);
    if (d.signum() == 0 || d.compareTo(parameters.getN()) >= 0) {
      throw new InvalidKeyException("private scalar out of range for " + exchange.wireName());
    }
    return d;
  }

  /** A uniformly random scalar in [1, n - 1]. */
  BigInteger randomScalar(SecureRandom random) {
    BigInteger n = parameters.getN();
    return BigIntegers.createRandomInRange(BigInteger.ONE, n.subtract(BigInteger.ONE), random);
  }

  /** What a JCA {@code KeyPairGenerator("EC")} is initialised with for this curve. */
  ECGenParameterSpec generatorParameters() {
    return new ECGenParameterSpec(jcaName);
  }

  /**
   * {@code 0x04 || X || Y} of a provider's affine point, coordinates left-padded to the field size.
   *
   * @throws InvalidKeyException for the point at infinity or a coordinate wider than the field
   */
  byte[] encode(java.security.spec.ECPoint point) throws InvalidKeyException {
    int f = fieldSizeInBytes();
    BigInteger x = point.getAffineX();
    BigInteger y = point.getAffineY();
    if (x == null || y == null || x.signum() < 0 || y.signum() < 0
        || x.bitLength() > 8 * f || y.bitLength() > 8 * f) {
      throw new InvalidKeyException("not an affine point of " + exchange.wireName());
    }
    byte[] out = new byte[1 + 2 * f];
    out[0] = UNCOMPRESSED_POINT_PREFIX;
    BigIntegers.asUnsignedByteArray(x, out, 1, f);
    BigIntegers.asUnsignedByteArray(y, out, 1 + f, f);
    return out;
  }

  /** {@code 0x04 || X || Y} of {@code d * G}, coordinates left-padded to the field size. */
  byte[] publicKeyOf(BigInteger d) {
    ECPoint q = new FixedPointCombMultiplier().multiply(parameters.getG(), d).normalize();
    return q.getEncoded(false);
  }

  /** PKCS#8 PrivateKeyInfo of scalar {@code d} with the named curve; the caller zeroes it after use. */
  byte[] privateKeyInfo(BigInteger d) {
    int orderBits = parameters.getN().bitLength();
    try {
      return new PrivateKeyInfo(keyAlgorithm, new ECPrivateKey(orderBits, d)).getEncoded();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // DER encoding to memory does not do I/O
    }
  }

  /**
   * X.509 SubjectPublicKeyInfo of an uncompressed point with the named curve. Every point of the
   * curve's size shares one DER prefix, so a handshake appends the point to it instead of running
   * the DER encoder.
   */
  byte[] subjectPublicKeyInfo(byte[] uncompressedPoint) {
    if (uncompressedPoint.length != exchange.publicKeySizeInBytes()) {
      return encodeSubjectPublicKeyInfo(uncompressedPoint);
    }
    byte[] out = Arrays.copyOf(publicKeyInfoPrefix, publicKeyInfoPrefix.length + uncompressedPoint.length);
    System.arraycopy(uncompressedPoint, 0, out, publicKeyInfoPrefix.length, uncompressedPoint.length);
    return out;
  }

  private byte[] encodeSubjectPublicKeyInfo(byte[] uncompressedPoint) {
    try {
      return new SubjectPublicKeyInfo(keyAlgorithm, uncompressedPoint).getEncoded();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public String toString() {
    return exchange.wireName() + " (" + oid + ")";
  }

  private static SecioException bad(String detail) {
    return new SecioException(SecioException.Reason.BAD_EPHEMERAL_KEY, detail);
  }
}
