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
import javax.crypto.Cipher;
import javax.crypto.Mac;

/** A real backend that also counts the ephemeral keys made, to show when exchange work happens. */
final class CountingBackend implements CryptoBackend {
  private final CryptoBackend delegate;
  int ephemeralKeys;

  CountingBackend(CryptoBackend delegate) {
    this.delegate = delegate;
  }

  @Override
  public String name() {
    return delegate.name();
  }

  @Override
  public boolean offers(Primitive primitive) {
    return delegate.offers(primitive);
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
