package io.secio.crypto;

import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.protocol.SecioException;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.spec.KeySpec;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import javax.crypto.Cipher;
import javax.crypto.Mac;

/**
 * A backend on one JCA provider (Conscrypt, the JDK or Bouncy Castle). Each primitive runs its
 * known-answer self-test on first use and is offered only if it passed; a primitive that is not
 * offered fails with {@link SecioException.Reason#UNAVAILABLE}.
 *
 * <p>Thread-safe; the ciphers, MACs and key pairs it returns are not.
 */
final class JcaBackend implements CryptoBackend {
  private final JcaPrimitives primitives;
  private final ConcurrentMap<Primitive, Boolean> verdicts = new ConcurrentHashMap<>();

  JcaBackend(JcaProfile profile) {
    this.primitives = new JcaPrimitives(profile);
  }

  /** The provider and names behind this backend, for tests that drive its JCA objects directly. */
  JcaProfile profile() {
    return primitives.profile();
  }

  @Override
  public String name() {
    return primitives.name();
  }

  @Override
  public boolean offers(Primitive primitive) {
    return verdicts.computeIfAbsent(primitive, p -> KnownAnswers.pass(p, primitives));
  }

  @Override
  public AeadCipher newAead(CipherAlgorithm cipher, byte[] key) throws GeneralSecurityException {
    require(Primitive.of(cipher));
    return primitives.newAead(cipher, key);
  }

  @Override
  public Cipher newCtr(CipherAlgorithm cipher, byte[] key, byte[] iv)
      throws GeneralSecurityException {
    require(Primitive.of(cipher));
    return primitives.newCtr(cipher, key, iv);
  }

  @Override
  public Mac newHmac(HashAlgorithm hash, byte[] key) throws GeneralSecurityException {
    require(Primitive.of(hash));
    return primitives.newHmac(hash, key);
  }

  @Override
  public EphemeralKeyPair generateEphemeral(ExchangeAlgorithm exchange, SecureRandom random)
      throws GeneralSecurityException {
    require(Primitive.of(exchange));
    return primitives.generateEphemeral(exchange, random);
  }

  @Override
  public EphemeralKeyPair ephemeralFromPrivate(ExchangeAlgorithm exchange, byte[] privateKey)
      throws GeneralSecurityException {
    require(Primitive.of(exchange));
    return primitives.ephemeralFromPrivate(exchange, privateKey);
  }

  @Override
  public Signer newSigner(Primitive signature, KeySpec privateKey) throws GeneralSecurityException {
    require(signature);
    return primitives.newSigner(signature, privateKey);
  }

  @Override
  public boolean verify(Primitive signature, KeySpec publicKey, byte[] message, byte[] sig)
      throws GeneralSecurityException {
    require(signature);
    return primitives.verify(signature, publicKey, message, sig);
  }

  private void require(Primitive primitive) throws SecioException {
    if (!offers(primitive)) {
      throw new SecioException(
          SecioException.Reason.UNAVAILABLE, primitive + " is not offered by " + name());
    }
  }

  @Override
  public String toString() {
    return name();
  }
}
