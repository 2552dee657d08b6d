package io.secio.crypto;

import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.SecioException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.interfaces.ECPublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import javax.crypto.KeyAgreement;

/**
 * An ephemeral key on a NIST curve whose key agreement runs on one JCA provider. The peer's point is
 * validated with {@link NistCurve#decodeRemote} before the provider sees it; the secret is the X
 * coordinate, always exactly the field size long.
 *
 * <p>Not thread-safe.
 */
final class EcdhKeyPair implements EphemeralKeyPair {
  private static final String KEY_ALGORITHM = "EC";
  private static final String AGREEMENT_ALGORITHM = "ECDH";

  private final JcaProfile profile;
  private final NistCurve curve;
  private final byte[] publicKey;
  private PrivateKey privateKey;

  private EcdhKeyPair(JcaProfile profile, NistCurve curve, byte[] publicKey, PrivateKey privateKey) {
    this.profile = profile;
    this.curve = curve;
    this.publicKey = publicKey;
    this.privateKey = privateKey;
  }

  /**
   * A fresh pair from the provider's own generator, many times faster than building a key from a
   * scalar. Conscrypt ignores {@code random} and draws on BoringSSL's generator.
   */
  static EcdhKeyPair generate(JcaProfile profile, NistCurve curve, SecureRandom random)
      throws GeneralSecurityException {
    KeyPairGenerator generator = profile.keyPairGenerator(KEY_ALGORITHM);
    generator.initialize(curve.generatorParameters(), random);
    KeyPair pair = generator.generateKeyPair();
    if (!(pair.getPublic() instanceof ECPublicKey)) {
      throw new InvalidKeyException("the provider's EC public key has no affine point");
    }
    byte[] publicKey = curve.encode(((ECPublicKey) pair.getPublic()).getW());
    return new EcdhKeyPair(profile, curve, publicKey, pair.getPrivate());
  }

  /** The pair with scalar {@code d} (already checked to lie in [1, n - 1]). */
  static EcdhKeyPair ofScalar(JcaProfile profile, NistCurve curve, BigInteger d)
      throws GeneralSecurityException {
    byte[] pkcs8 = curve.privateKeyInfo(d);
    try {
      PrivateKey key = profile.keyFactory(KEY_ALGORITHM).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
      return new EcdhKeyPair(profile, curve, curve.publicKeyOf(d), key);
    } finally {
      Arrays.fill(pkcs8, (byte) 0);
    }
  }

  @Override
  public ExchangeAlgorithm exchange() {
    return curve.exchange();
  }

  @Override
  public byte[] publicKey() {
    return publicKey.clone();
  }

  @Override
  public byte[] agree(byte[] remotePublicKey) throws SecioException {
    PrivateKey key = privateKey;
    if (key == null) {
      throw new IllegalStateException("ephemeral key already destroyed");
    }
    curve.decodeRemote(remotePublicKey);
    byte[] raw;
    try {
      X509EncodedKeySpec spki = new X509EncodedKeySpec(curve.subjectPublicKeyInfo(remotePublicKey));
      PublicKey remote = profile.keyFactory(KEY_ALGORITHM).generatePublic(spki);
      KeyAgreement agreement = profile.keyAgreement(AGREEMENT_ALGORITHM);
      agreement.init(key);
      agreement.doPhase(remote, true);
      raw = agreement.generateSecret();
    } catch (GeneralSecurityException | RuntimeException e) {
      // The provider's message is not passed on: only what kind of failure it was.
      throw new SecioException(
          SecioException.Reason.BAD_EPHEMERAL_KEY,
          "key agreement failed (" + e.getClass().getSimpleName() + ")");
    }
    try {
      return fixedLength(raw, curve.fieldSizeInBytes());
    } finally {
      Arrays.fill(raw, (byte) 0);
    }
  }

  @Override
  public void destroy() {
    PrivateKey key = privateKey;
    privateKey = null;
    if (key != null) {
      PrivateKeys.destroy(key);
    }
  }

  /**
   * {@code secret} as exactly {@code size} big-endian bytes: left-padded when a provider strips
   * leading zeros (docs/PROTOCOL.md section 7), and never shortened unless the extra bytes are leading zeros.
   */
  static byte[] fixedLength(byte[] secret, int size) throws SecioException {
    byte[] out = new byte[size];
    int excess = secret.length - size;
    for (int i = 0; i < excess; i++) {
      if (secret[i] != 0) {
        throw new SecioException(
            SecioException.Reason.BAD_EPHEMERAL_KEY, "shared secret longer than the field");
      }
    }
    int from = Math.max(0, excess);
    System.arraycopy(secret, from, out, size - (secret.length - from), secret.length - from);
    return out;
  }

  @Override
  public String toString() {
    return "EcdhKeyPair{" + curve.exchange().wireName() + ", " + profile.name() + "}";
  }
}
