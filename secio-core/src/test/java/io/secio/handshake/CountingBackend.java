package io.secio.handshake;

import io.secio.CipherAlgorithm;
import io.secio.ExchangeAlgorithm;
import io.secio.HashAlgorithm;
import io.secio.crypto.AeadCipher;
import io.secio.crypto.CryptoBackend;
import io.secio.crypto.EphemeralKeyPair;
import io.secio.crypto.Primitive;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.Set;
import javax.crypto.Cipher;
import javax.crypto.Mac;

/**
 * A real backend that also counts the ephemeral keys made, to show when exchange work happens, and
 * can withhold primitives, as a backend would that lacks them.
 */
final class CountingBackend implements CryptoBackend {
  private final CryptoBackend delegate;
  private final Set<Primitive> withheld = EnumSet.noneOf(Primitive.class);
  int ephemeralKeys;

  CountingBackend(CryptoBackend delegate) {
    this.delegate = delegate;
  }

  /** Stops offering {@code primitives}; returns this. */
  CountingBackend withholding(Primitive... primitives) {
    withheld.addAll(Set.of(primitives));
    return this;
  }

  @Override
  public String name() {
    return delegate.name();
  }

  @Override
  public boolean offers(Primitive primitive) {
    return !withheld.contains(primitive) && delegate.offers(primitive);
  }

  @Override
  public AeadCipher newAead(CipherAlgorithm cipher, byte[] key) throws GeneralSecurityException {
    return delegate.newAead(cipher, key);
  }

  @Override
  public Cipher newCtr(CipherAlgorithm cipher, byte[] key, byte[] iv) throws GeneralSecurityException {
    return delegate.newCtr(cipher, key, iv);
  }

  @Override
  public Mac newHmac(HashAlgorithm hash, byte[] key) throws GeneralSecurityException {
    return delegate.newHmac(hash, key);
  }

  @Override
  public EphemeralKeyPair generateEphemeral(ExchangeAlgorithm exchange, SecureRandom random)
      throws GeneralSecurityException {
    ephemeralKeys++;
    return delegate.generateEphemeral(exchange, random);
  }

  @Override
  public EphemeralKeyPair ephemeralFromPrivate(ExchangeAlgorithm exchange, byte[] privateKey)
      throws GeneralSecurityException {
    ephemeralKeys++;
    return delegate.ephemeralFromPrivate(exchange, privateKey);
  }
}
