package io.secio.identity;

import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.spec.EdECPrivateKeySpec;
import java.security.spec.NamedParameterSpec;
import java.util.Arrays;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * Ed25519 identities: {@code PublicKey.Data} is the 32-byte key, {@code PrivateKey.Data} is
 * {@code seed || pub} (64 bytes; the legacy {@code seed || pub || pub} is accepted on import).
 * Signing uses the JDK's SunEC provider, verifying Bouncy Castle's RFC 8032 code (see below).
 */
final class Ed25519Identity implements KeyScheme {
  static final Ed25519Identity INSTANCE = new Ed25519Identity();

  private static final String PROVIDER = "SunEC";
  private static final int KEY_SIZE_IN_BYTES = 32;
  private static final int SIGNATURE_SIZE_IN_BYTES = 64;
  private static final int PRIVATE_DATA_SIZE_IN_BYTES = 2 * KEY_SIZE_IN_BYTES;
  private static final int LEGACY_PRIVATE_DATA_SIZE_IN_BYTES = 3 * KEY_SIZE_IN_BYTES;

  private Ed25519Identity() {}

  @Override
  public Verifier publicKey(byte[] publicData) throws InvalidKeyException {
    if (publicData.length != KEY_SIZE_IN_BYTES) {
      throw new InvalidKeyException("Ed25519 public key must be 32 bytes");
    }
    // The JDK has no point validation for EdDSA keys. The full check: canonical encoding, on the
    // curve, and not of small order (anyone can sign for a small-order key).
    Ed25519.PublicPoint point = Ed25519.validatePublicKeyFullExport(publicData, 0);
    if (point == null) {
      throw new InvalidKeyException("Ed25519 public key is not a valid point");
    }
    // Bouncy Castle, not SunEC: SunEC accepts a signature with a zero byte appended (Wycheproof 37).
    return (message, signature) -> signature.length == SIGNATURE_SIZE_IN_BYTES
        && Ed25519.verify(signature, 0, point, message, 0, message.length);
  }

  @Override
  public SigningKey privateKey(byte[] privateData) throws InvalidKeyException {
    if (privateData.length != PRIVATE_DATA_SIZE_IN_BYTES
        && privateData.length != LEGACY_PRIVATE_DATA_SIZE_IN_BYTES) {
      throw new InvalidKeyException("Ed25519 private key must be 64 (or legacy 96) bytes");
    }
    byte[] seed = Arrays.copyOfRange(privateData, 0, KEY_SIZE_IN_BYTES);
    byte[] derived = derivePublic(seed);
    for (int offset = KEY_SIZE_IN_BYTES; offset < privateData.length; offset += KEY_SIZE_IN_BYTES) {
      if (!Arrays.equals(
          privateData, offset, offset + KEY_SIZE_IN_BYTES, derived, 0, KEY_SIZE_IN_BYTES)) {
        Arrays.fill(seed, (byte) 0);
        throw new InvalidKeyException("Ed25519 public key does not match the seed");
      }
    }
    return signingKey(seed, derived);
  }

  @Override
  public SigningKey generate(SecureRandom random) {
    byte[] seed = new byte[KEY_SIZE_IN_BYTES];
    random.nextBytes(seed);
    return signingKey(seed, derivePublic(seed));
  }

  /** Takes ownership of {@code seed} (and wipes it once the JDK key holds its own copy). */
  private static SigningKey signingKey(byte[] seed, byte[] publicData) {
    PrivateKey key;
    try {
      key = KeyFactory.getInstance("Ed25519", PROVIDER)
          .generatePrivate(new EdECPrivateKeySpec(NamedParameterSpec.ED25519, seed));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SunEC cannot build an Ed25519 key", e);
    }
    byte[] privateData = new byte[PRIVATE_DATA_SIZE_IN_BYTES];
    System.arraycopy(seed, 0, privateData, 0, KEY_SIZE_IN_BYTES);
    System.arraycopy(publicData, 0, privateData, KEY_SIZE_IN_BYTES, KEY_SIZE_IN_BYTES);
    Arrays.fill(seed, (byte) 0);
    return new SigningKey(privateData, publicData, message -> {
      Signature signer = Signature.getInstance("Ed25519", PROVIDER);
      signer.initSign(key);
      signer.update(message);
      return signer.sign();
    });
  }

  /** The JDK cannot derive an Ed25519 public key from a given seed; Bouncy Castle can. */
  private static byte[] derivePublic(byte[] seed) {
    byte[] publicData = new byte[KEY_SIZE_IN_BYTES];
    Ed25519.generatePublicKey(seed, 0, publicData, 0);
    return publicData;
  }
}
