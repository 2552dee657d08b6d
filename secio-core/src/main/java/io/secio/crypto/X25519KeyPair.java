package io.secio.crypto;

import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.SecioException;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import javax.crypto.KeyAgreement;
import org.bouncycastle.math.ec.rfc7748.X25519;

/**
 * An ephemeral X25519 key (RFC 7748) whose key agreement runs on one JCA provider. Raw keys travel to
 * the provider in their X.509 / PKCS#8 wrappings, which JDK, Conscrypt and Bouncy Castle all read.
 * A peer key is reduced to its canonical u-coordinate first (RFC 7748 section 5), so every provider
 * computes the same function; an all-zero result (a small-order peer key) is refused.
 *
 * <p>Not thread-safe.
 */
final class X25519KeyPair implements EphemeralKeyPair {
  static final int KEY_SIZE_IN_BYTES = 32;
  /** The JCA key size that asks an XDH key pair generator for X25519 rather than X448. */
  private static final int GENERATOR_KEY_SIZE_IN_BITS = 255;

  /** SubjectPublicKeyInfo of id-X25519 (1.3.101.110) up to the 32 key bytes. */
  private static final byte[] X509_PREFIX = {
    0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x03, 0x21, 0x00
  };
  /** PrivateKeyInfo v0 of id-X25519 with an OCTET STRING CurvePrivateKey, up to the 32 key bytes. */
  private static final byte[] PKCS8_PREFIX = {
    0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x04, 0x22, 0x04, 0x20
  };

  private final JcaProfile profile;
  private final byte[] publicKey;
  private PrivateKey privateKey;

  private X25519KeyPair(JcaProfile profile, byte[] publicKey, PrivateKey privateKey) {
    this.profile = profile;
    this.publicKey = publicKey;
    this.privateKey = privateKey;
  }

  /**
   * A fresh pair from the provider's own generator, which saves the private key's PKCS#8 round trip.
   * Conscrypt ignores {@code random} and draws on BoringSSL's generator.
   */
  static X25519KeyPair generate(JcaProfile profile, SecureRandom random)
      throws GeneralSecurityException {
    KeyPairGenerator generator = profile.keyPairGenerator(profile.xdhAlgorithm());
    generator.initialize(GENERATOR_KEY_SIZE_IN_BITS, random);
    KeyPair pair = generator.generateKeyPair();
    byte[] spki = pair.getPublic().getEncoded();
    if (spki == null
        || spki.length != X509_PREFIX.length + KEY_SIZE_IN_BYTES
        || !Arrays.equals(spki, 0, X509_PREFIX.length, X509_PREFIX, 0, X509_PREFIX.length)) {
      throw new InvalidKeyException("the provider's X25519 public key is not X.509 id-X25519");
    }
    byte[] publicKey = Arrays.copyOfRange(spki, X509_PREFIX.length, spki.length);
    return new X25519KeyPair(profile, publicKey, pair.getPrivate());
  }

  /** The pair with these 32 raw private bytes, which X25519 itself clamps. */
  static X25519KeyPair ofPrivate(JcaProfile profile, byte[] raw) throws GeneralSecurityException {
    if (raw == null || raw.length != KEY_SIZE_IN_BYTES) {
      throw new InvalidKeyException("an X25519 private key is 32 bytes");
    }
    byte[] publicKey = new byte[KEY_SIZE_IN_BYTES];
    X25519.generatePublicKey(raw, 0, publicKey, 0);
    byte[] pkcs8 = concat(PKCS8_PREFIX, raw);
    try {
      PrivateKey key =
          profile.keyFactory(profile.xdhAlgorithm()).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
      return new X25519KeyPair(profile, publicKey, key);
    } finally {
      Arrays.fill(pkcs8, (byte) 0);
    }
  }

  @Override
  public ExchangeAlgorithm exchange() {
    return ExchangeAlgorithm.X25519;
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
    if (remotePublicKey == null || remotePublicKey.length != KEY_SIZE_IN_BYTES) {
      throw bad("wrong length for X25519");
    }
    byte[] secret;
    try {
      X509EncodedKeySpec spki = new X509EncodedKeySpec(concat(X509_PREFIX, canonical(remotePublicKey)));
      PublicKey remote = profile.keyFactory(profile.xdhAlgorithm()).generatePublic(spki);
      KeyAgreement agreement = profile.keyAgreement(profile.xdhAlgorithm());
      agreement.init(key);
      agreement.doPhase(remote, true);
      secret = agreement.generateSecret();
    } catch (GeneralSecurityException | RuntimeException e) {
      // Providers refuse small-order points with assorted exceptions; all mean the same here.
      throw bad("key agreement failed (" + e.getClass().getSimpleName() + ")");
    }
    if (secret.length != KEY_SIZE_IN_BYTES) {
      Arrays.fill(secret, (byte) 0);
      throw bad("shared secret of the wrong length");
    }
    int any = 0;
    for (byte b : secret) {
      any |= b; // no early exit: the secret must not leak through timing
    }
    if (any == 0) {
      throw bad("all-zero shared secret");
    }
    return secret;
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
   * The canonical little-endian u-coordinate of a peer key: the top bit masked and a value in
   * [p, 2^255) reduced by p = 2^255 - 19, exactly as RFC 7748 section 5 requires receivers to treat
   * it. Doing it here keeps providers that differ on non-canonical input from disagreeing.
   */
  static byte[] canonical(byte[] u) {
    byte[] c = u.clone();
    c[31] &= 0x7f;
    boolean belowP = (c[31] & 0xff) != 0x7f || (c[0] & 0xff) < 0xed;
    for (int i = 1; i < 31 && !belowP; i++) {
      belowP = c[i] != (byte) 0xff;
    }
    if (!belowP) { // u - p, with u < 2p, is just the low byte minus 0xed
      byte low = (byte) ((c[0] & 0xff) - 0xed);
      Arrays.fill(c, (byte) 0);
      c[0] = low;
    }
    return c;
  }

  private static byte[] concat(byte[] prefix, byte[] key) {
    byte[] out = Arrays.copyOf(prefix, prefix.length + key.length);
    System.arraycopy(key, 0, out, prefix.length, key.length);
    return out;
  }

  private static SecioException bad(String detail) {
    return new SecioException(SecioException.Reason.BAD_EPHEMERAL_KEY, detail);
  }

  @Override
  public String toString() {
    return "X25519KeyPair{" + profile.name() + "}";
  }
}
