package io.secio.identity;

import java.security.InvalidKeyException;
import java.security.SecureRandom;
import java.util.Arrays;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * Ed25519 identities: {@code PublicKey.Data} is the 32-byte key, {@code PrivateKey.Data} is
 * {@code seed || pub} (64 bytes; the legacy {@code seed || pub || pub} is accepted on import).
 * Signing and verifying use Bouncy Castle's RFC 8032 code: Ed25519 is deterministic, so its
 * signatures are the bytes SunEC made before, at a fraction of SunEC's cost (see below).
 */
final class Ed25519Identity implements KeyScheme {
  static final Ed25519Identity INSTANCE = new Ed25519Identity();

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

  /** Takes ownership of {@code seed}, which the signer keeps for the life of the key. */
  private static SigningKey signingKey(byte[] seed, byte[] publicData) {
    byte[] privateData = new byte[PRIVATE_DATA_SIZE_IN_BYTES];
    System.arraycopy(seed, 0, privateData, 0, KEY_SIZE_IN_BYTES);
    System.arraycopy(publicData, 0, privateData, KEY_SIZE_IN_BYTES, KEY_SIZE_IN_BYTES);
    return new SigningKey(privateData, publicData, new Signer(seed, publicData.clone()));
  }

  /**
   * Signs with the seed and its already derived public key. SunEC's Ed25519 costs several times
   * Bouncy Castle's and needs thousands of calls to warm up; passing the public key also spares
   * Bouncy Castle a second scalar multiplication per signature.
   */
  private static final class Signer implements KeyScheme.Signer {
    private final byte[] seed;
    private final byte[] publicData;

    Signer(byte[] seed, byte[] publicData) {
      this.seed = seed;
      this.publicData = publicData;
    }

    @Override
    public byte[] sign(byte[] message) {
      byte[] signature = new byte[SIGNATURE_SIZE_IN_BYTES];
      Ed25519.sign(seed, 0, publicData, 0, message, 0, message.length, signature, 0);
      return signature;
    }

    /** Never the seed. */
    @Override
    public String toString() {
      return "Ed25519 signer";
    }
  }

  /** The public key of a seed (RFC 8032 section 5.1.5). */
  private static byte[] derivePublic(byte[] seed) {
    byte[] publicData = new byte[KEY_SIZE_IN_BYTES];
    Ed25519.generatePublicKey(seed, 0, publicData, 0);
    return publicData;
  }
}
