package io.secio.crypto;

import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.spec.KeySpec;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.IvParameterSpec;

/**
 * The primitives of one {@link JcaProfile}, before any self-test: {@link JcaBackend} hands them out
 * only for primitives whose known answers came out right, and {@link KnownAnswers} is the only
 * other caller. Never give an instance to code outside this package.
 *
 * <p>Thread-safe; the objects it returns are not.
 */
final class JcaPrimitives implements CryptoBackend {
  private static final int CTR_IV_SIZE_IN_BYTES = 16;

  private final JcaProfile profile;
  private final JcaSignatures signatures;

  JcaPrimitives(JcaProfile profile) {
    this.profile = profile;
    this.signatures = new JcaSignatures(profile);
  }

  JcaProfile profile() {
    return profile;
  }

  @Override
  public String name() {
    return profile.name();
  }

  /** Everything is offered before the self-tests; that is why this class stays package-private. */
  @Override
  public boolean offers(Primitive primitive) {
    return true;
  }

  @Override
  public AeadCipher newAead(CipherAlgorithm cipher, byte[] key) throws GeneralSecurityException {
    return new JcaAead(profile, cipher, key);
  }

  @Override
  public Cipher newCtr(CipherAlgorithm cipher, byte[] key, byte[] iv)
      throws GeneralSecurityException {
    if (Primitive.of(cipher) != Primitive.AES_CTR) {
      throw new IllegalArgumentException(cipher.wireName() + " is not AES-CTR");
    }
    if (key == null || key.length != cipher.keySizeInBytes()) {
      throw new IllegalArgumentException(
          cipher.wireName() + " needs a " + cipher.keySizeInBytes() + "-byte key");
    }
    if (iv == null || iv.length != CTR_IV_SIZE_IN_BYTES) {
      throw new IllegalArgumentException("an AES-CTR iv is " + CTR_IV_SIZE_IN_BYTES + " bytes");
    }
    Cipher ctr = profile.ctrCipher();
    // The provider copies the key at init; ours is zeroed right after, not left in a SecretKeySpec.
    DestroyableKey k = new DestroyableKey(key, "AES");
    try {
      ctr.init(Cipher.ENCRYPT_MODE, k, new IvParameterSpec(iv));
    } finally {
      k.destroy();
    }
    return ctr;
  }

  @Override
  public Mac newHmac(HashAlgorithm hash, byte[] key) throws GeneralSecurityException {
    if (key == null || key.length == 0) {
      throw new IllegalArgumentException("an HMAC key must not be empty");
    }
    Mac mac = profile.mac(hash.jcaHmacName());
    DestroyableKey k = new DestroyableKey(key, hash.jcaHmacName());
    try {
      mac.init(k);
    } finally {
      k.destroy();
    }
    return mac;
  }

  @Override
  public EphemeralKeyPair generateEphemeral(ExchangeAlgorithm exchange, SecureRandom random)
      throws GeneralSecurityException {
    if (profile.generatesKeyPairs()) {
      return exchange == ExchangeAlgorithm.X25519
          ? X25519KeyPair.generate(profile, random)
          : EcdhKeyPair.generate(profile, NistCurve.of(exchange), random);
    }
    if (exchange == ExchangeAlgorithm.X25519) {
      byte[] raw = new byte[X25519KeyPair.KEY_SIZE_IN_BYTES];
      random.nextBytes(raw);
      try {
        return X25519KeyPair.ofPrivate(profile, raw);
      } finally {
        Arrays.fill(raw, (byte) 0);
      }
    }
    NistCurve curve = NistCurve.of(exchange);
    return EcdhKeyPair.ofScalar(profile, curve, curve.randomScalar(random));
  }

  @Override
  public EphemeralKeyPair ephemeralFromPrivate(ExchangeAlgorithm exchange, byte[] privateKey)
      throws GeneralSecurityException {
    if (exchange == ExchangeAlgorithm.X25519) {
      return X25519KeyPair.ofPrivate(profile, privateKey);
    }
    NistCurve curve = NistCurve.of(exchange);
    return EcdhKeyPair.ofScalar(profile, curve, curve.scalar(privateKey));
  }

  @Override
  public Signer newSigner(Primitive signature, KeySpec privateKey) throws GeneralSecurityException {
    return signatures.newSigner(signature, privateKey);
  }

  @Override
  public boolean verify(Primitive signature, KeySpec publicKey, byte[] message, byte[] sig)
      throws GeneralSecurityException {
    return signatures.verify(signature, publicKey, message, sig);
  }

  @Override
  public String toString() {
    return "JcaPrimitives{" + profile.name() + "}";
  }
}
