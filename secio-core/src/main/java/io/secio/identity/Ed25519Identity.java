package io.secio.identity;

import io.secio.crypto.Ed25519KeySpecs;
import io.secio.crypto.Primitive;
import java.security.InvalidKeyException;
import java.security.SecureRandom;
import java.util.Arrays;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * Ed25519 identities: {@code PublicKey.Data} is the 32-byte key, {@code PrivateKey.Data} is
 * {@code seed || pub} (64 bytes; the legacy {@code seed || pub || pub} is accepted on import).
 * Peer keys are validated with Bouncy Castle, and the keys that pass are remembered ({@link
 * ValidatedEd25519Keys}) so that a peer met again is not checked again; signatures are made and
 * checked by the caller's backend ({@link Primitive#ED25519}), by the cofactored rule on every one
 * (docs/PROTOCOL.md section 3.1). Ed25519 is deterministic, so every backend makes the same bytes.
 */
final class Ed25519Identity implements KeyScheme {
  static final Ed25519Identity INSTANCE =
      new Ed25519Identity(new ValidatedEd25519Keys(ValidatedEd25519Keys.DEFAULT_CAPACITY_IN_KEYS));

  private static final int KEY_SIZE_IN_BYTES = Ed25519KeySpecs.KEY_SIZE_IN_BYTES;
  private static final int SIGNATURE_SIZE_IN_BYTES = Ed25519KeySpecs.SIGNATURE_SIZE_IN_BYTES;
  private static final int PRIVATE_DATA_SIZE_IN_BYTES = 2 * KEY_SIZE_IN_BYTES;
  private static final int LEGACY_PRIVATE_DATA_SIZE_IN_BYTES = 3 * KEY_SIZE_IN_BYTES;

  private final ValidatedEd25519Keys validated;

  /** Ed25519 keys with peer keys that passed remembered in {@code validated}. */
  Ed25519Identity(ValidatedEd25519Keys validated) {
    this.validated = validated;
  }

  @Override
  public Verifier publicKey(byte[] publicData) throws InvalidKeyException {
    if (publicData.length != KEY_SIZE_IN_BYTES) {
      throw new InvalidKeyException("Ed25519 public key must be 32 bytes");
    }
    // The JDK has no point validation for EdDSA keys. Checked: canonical encoding, on the curve, and
    // not of small order (anyone can sign for a small-order key; why not the full subgroup check:
    // docs/PROTOCOL.md section 3.1).
    Ed25519.PublicPoint point = validated.validate(publicData);
    if (point == null) {
      throw new InvalidKeyException("Ed25519 public key is not a valid point");
    }
    // Only 64 bytes: SunEC accepts a signature with a zero byte appended (Wycheproof 37).
    Ed25519KeySpecs.Public key = new Ed25519KeySpecs.Public(publicData.clone(), point);
    return (backend, message, signature) -> signature.length == SIGNATURE_SIZE_IN_BYTES
        && backend.verify(Primitive.ED25519, key, message, signature);
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

  /** Takes {@code seed} over: the key pair holds it from now on. */
  private static SigningKey signingKey(byte[] seed, byte[] publicData) {
    byte[] privateData = new byte[PRIVATE_DATA_SIZE_IN_BYTES];
    System.arraycopy(seed, 0, privateData, 0, KEY_SIZE_IN_BYTES);
    System.arraycopy(publicData, 0, privateData, KEY_SIZE_IN_BYTES, KEY_SIZE_IN_BYTES);
    return new SigningKey(privateData, publicData, Primitive.ED25519,
        new Ed25519KeySpecs.Private(seed, publicData));
  }

  /** The public key of a seed (RFC 8032 section 5.1.5). */
  private static byte[] derivePublic(byte[] seed) {
    byte[] publicData = new byte[KEY_SIZE_IN_BYTES];
    Ed25519.generatePublicKey(seed, 0, publicData, 0);
    return publicData;
  }
}
