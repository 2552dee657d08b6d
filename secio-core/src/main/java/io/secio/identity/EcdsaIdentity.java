package io.secio.identity;

import java.io.IOException;
import java.math.BigInteger;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
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
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;

/**
 * ECDSA identities, P-256 only: {@code PublicKey.Data} is a DER SubjectPublicKeyInfo, {@code
 * PrivateKey.Data} a DER SEC1 ECPrivateKey (RFC 5915, written with curve and public key as go-libp2p
 * does); signatures are ECDSA over SHA-256(m), DER. Signing uses the JDK's SunEC provider.
 * Bouncy Castle verifies (see below), reads and writes SEC1, and derives a public key from a scalar,
 * which the JDK cannot.
 */
final class EcdsaIdentity implements KeyScheme {
  static final EcdsaIdentity INSTANCE = new EcdsaIdentity();

  private static final String PROVIDER = "SunEC";
  private static final String SIGNATURE = "SHA256withECDSA";
  private static final String CURVE_NAME = "secp256r1";
  private static final ECParameterSpec P256 = p256();
  private static final X9ECParameters P256_MATH = CustomNamedCurves.getByName(CURVE_NAME);
  private static final ECDomainParameters P256_DOMAIN = new ECDomainParameters(P256_MATH);
  private static final int SCALAR_SIZE_IN_BYTES = 32;

  private EcdsaIdentity() {}

  @Override
  public Verifier publicKey(byte[] publicData) throws InvalidKeyException {
    ECPublicKey key;
    try {
      key = (ECPublicKey) keyFactory().generatePublic(new X509EncodedKeySpec(publicData));
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
    ECPublicKeyParameters point = onCurve(key.getW());
    // Bouncy Castle, not SunEC: SunEC takes a BER s and refuses valid r, s near n (Wycheproof 6, 350).
    return (message, signature) -> {
      EcdsaSignature rs = EcdsaSignature.fromDer(signature);
      ECDSASigner verifier = new ECDSASigner();
      verifier.init(false, point);
      return verifier.verifySignature(sha256(message), rs.r(), rs.s());
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
    try {
      KeyFactory factory = keyFactory();
      PrivateKey key = factory.generatePrivate(new ECPrivateKeySpec(d, P256));
      byte[] publicData = factory.generatePublic(new ECPublicKeySpec(w, P256)).getEncoded();
      return signingKey(key, d, w, publicData);
    } catch (InvalidKeySpecException e) {
      throw new InvalidKeyException("EC key rejected by " + PROVIDER, e);
    }
  }

  @Override
  public SigningKey generate(SecureRandom random) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC", PROVIDER);
      generator.initialize(new ECGenParameterSpec(CURVE_NAME), random);
      KeyPair pair = generator.generateKeyPair();
      ECPrivateKey key = (ECPrivateKey) pair.getPrivate();
      ECPoint w = ((ECPublicKey) pair.getPublic()).getW();
      return signingKey(key, key.getS(), w, pair.getPublic().getEncoded());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot generate a P-256 key with " + PROVIDER, e);
    }
  }

  private static SigningKey signingKey(PrivateKey key, BigInteger d, ECPoint w, byte[] publicData) {
    byte[] privateData;
    try {
      privateData = new org.bouncycastle.asn1.sec.ECPrivateKey(
              SCALAR_SIZE_IN_BYTES * 8, d, new DERBitString(uncompressed(w)),
              SECObjectIdentifiers.secp256r1)
          .getEncoded(ASN1Encoding.DER);
    } catch (IOException e) {
      throw new IllegalStateException("cannot encode a SEC1 ECPrivateKey", e);
    }
    return new SigningKey(privateData, publicData, message -> {
      Signature signer = Signature.getInstance(SIGNATURE, PROVIDER);
      signer.initSign(key);
      signer.update(message);
      return signer.sign();
    });
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

  private static byte[] sha256(byte[] message) {
    SHA256Digest digest = new SHA256Digest();
    digest.update(message, 0, message.length);
    byte[] out = new byte[digest.getDigestSize()];
    digest.doFinal(out, 0);
    return out;
  }

  private static boolean isP256(ECParameterSpec params) {
    return P256.getCurve().equals(params.getCurve())
        && P256.getGenerator().equals(params.getGenerator())
        && P256.getOrder().equals(params.getOrder())
        && P256.getCofactor() == params.getCofactor();
  }

  private static ECParameterSpec p256() {
    try {
      AlgorithmParameters parameters = AlgorithmParameters.getInstance("EC", PROVIDER);
      parameters.init(new ECGenParameterSpec(CURVE_NAME));
      return parameters.getParameterSpec(ECParameterSpec.class);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(PROVIDER + " lacks P-256", e);
    }
  }

  private static KeyFactory keyFactory() {
    try {
      return KeyFactory.getInstance("EC", PROVIDER);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(PROVIDER + " provider missing", e);
    }
  }
}
