package io.secio.identity;

import io.secio.crypto.JdkKeys;
import io.secio.crypto.Primitive;
import java.io.IOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.RSAKeyGenParameterSpec;
import java.security.spec.RSAPrivateCrtKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.pkcs.RSAPrivateKey;

/**
 * RSA identities: {@code PublicKey.Data} is a DER SubjectPublicKeyInfo, {@code PrivateKey.Data} a DER
 * PKCS#1 RSAPrivateKey; signatures are RSASSA-PKCS1-v1_5 with SHA-256. Moduli of 2048 to 8192 bits
 * only: smaller ones are weak, larger ones make every handshake with that peer expensive. Signing and
 * verifying run on the caller's backend ({@link Primitive#RSA_SHA256}); the JDK's SunRsaSign decodes
 * and generates keys ({@link JdkKeys}), and Bouncy Castle reads and writes PKCS#1.
 */
final class RsaIdentity implements KeyScheme {
  static final RsaIdentity INSTANCE = new RsaIdentity();

  private static final int MIN_MODULUS_SIZE_IN_BITS = 2048;
  private static final int MAX_MODULUS_SIZE_IN_BITS = 8192;
  /** Go's crypto/rsa refuses exponents over 2^31 - 1; the bound also caps verification cost. */
  private static final int MAX_EXPONENT_SIZE_IN_BITS = 31;

  private RsaIdentity() {}

  @Override
  public Verifier publicKey(byte[] publicData) throws InvalidKeyException {
    RSAPublicKey key;
    try {
      key = (RSAPublicKey) JdkKeys.rsaKeyFactory().generatePublic(new X509EncodedKeySpec(publicData));
    } catch (InvalidKeySpecException | ClassCastException e) {
      throw new InvalidKeyException("not an RSA SubjectPublicKeyInfo", e);
    }
    // The key's bytes are its peer id: only the one DER encoding is accepted.
    if (!Arrays.equals(key.getEncoded(), publicData)) {
      throw new InvalidKeyException("RSA public key is not in DER form");
    }
    checkSizes(key.getModulus(), key.getPublicExponent());
    RSAPublicKeySpec spec = new RSAPublicKeySpec(key.getModulus(), key.getPublicExponent());
    return (backend, message, signature) ->
        backend.verify(Primitive.RSA_SHA256, spec, message, signature);
  }

  @Override
  public SigningKey privateKey(byte[] privateData) throws InvalidKeyException {
    RSAPrivateKey pkcs1;
    try {
      pkcs1 = RSAPrivateKey.getInstance(privateData);
      if (!Arrays.equals(pkcs1.getEncoded(ASN1Encoding.DER), privateData)) {
        throw new InvalidKeyException("RSA private key is not in DER form");
      }
    } catch (IllegalArgumentException | IOException e) {
      throw new InvalidKeyException("not a PKCS#1 RSAPrivateKey", e);
    }
    if (pkcs1.getVersion().signum() != 0) {
      throw new InvalidKeyException("multi-prime RSA keys are not supported");
    }
    checkSizes(pkcs1.getModulus(), pkcs1.getPublicExponent());
    try {
      RSAPrivateCrtKeySpec key = new RSAPrivateCrtKeySpec(
          pkcs1.getModulus(), pkcs1.getPublicExponent(), pkcs1.getPrivateExponent(),
          pkcs1.getPrime1(), pkcs1.getPrime2(), pkcs1.getExponent1(), pkcs1.getExponent2(),
          pkcs1.getCoefficient());
      byte[] publicData = JdkKeys.rsaKeyFactory()
          .generatePublic(new RSAPublicKeySpec(pkcs1.getModulus(), pkcs1.getPublicExponent()))
          .getEncoded();
      return new SigningKey(privateData.clone(), publicData, Primitive.RSA_SHA256, key);
    } catch (InvalidKeySpecException e) {
      throw new InvalidKeyException("RSA private key rejected by " + JdkKeys.RSA_PROVIDER, e);
    }
  }

  @Override
  public SigningKey generate(SecureRandom random) {
    try {
      KeyPairGenerator generator = JdkKeys.rsaKeyPairGenerator();
      generator.initialize(
          new RSAKeyGenParameterSpec(MIN_MODULUS_SIZE_IN_BITS, RSAKeyGenParameterSpec.F4), random);
      KeyPair pair = generator.generateKeyPair();
      RSAPrivateCrtKey key = (RSAPrivateCrtKey) pair.getPrivate();
      byte[] privateData = new RSAPrivateKey(
          key.getModulus(), key.getPublicExponent(), key.getPrivateExponent(),
          key.getPrimeP(), key.getPrimeQ(), key.getPrimeExponentP(), key.getPrimeExponentQ(),
          key.getCrtCoefficient()).getEncoded(ASN1Encoding.DER);
      RSAPrivateCrtKeySpec spec = new RSAPrivateCrtKeySpec(
          key.getModulus(), key.getPublicExponent(), key.getPrivateExponent(),
          key.getPrimeP(), key.getPrimeQ(), key.getPrimeExponentP(), key.getPrimeExponentQ(),
          key.getCrtCoefficient());
      return new SigningKey(privateData, pair.getPublic().getEncoded(), Primitive.RSA_SHA256, spec);
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("cannot generate an RSA key with " + JdkKeys.RSA_PROVIDER, e);
    }
  }

  private static void checkSizes(BigInteger modulus, BigInteger exponent) throws InvalidKeyException {
    int bits = modulus.bitLength();
    if (bits < MIN_MODULUS_SIZE_IN_BITS || bits > MAX_MODULUS_SIZE_IN_BITS) {
      throw new InvalidKeyException(
          "RSA modulus of " + bits + " bits; " + MIN_MODULUS_SIZE_IN_BITS + " to "
              + MAX_MODULUS_SIZE_IN_BITS + " allowed");
    }
    if (!exponent.testBit(0) || exponent.bitLength() < 2
        || exponent.bitLength() > MAX_EXPONENT_SIZE_IN_BITS) {
      throw new InvalidKeyException("RSA public exponent must be odd and between 3 and 2^31");
    }
  }
}
