package io.secio.testing;

import io.secio.crypto.AeadCipher;
import io.secio.crypto.CryptoBackend;
import io.secio.crypto.EphemeralKeyPair;
import io.secio.crypto.Primitive;
import io.secio.crypto.Signer;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.spec.KeySpec;
import javax.crypto.Cipher;
import javax.crypto.Mac;

/** A backend that passes every call to another; test backends override only the calls they change. */
public class ForwardingBackend implements CryptoBackend {
  protected final CryptoBackend real;

  public ForwardingBackend(CryptoBackend real) {
    this.real = real;
  }

  @Override
  public String name() {
    return real.name();
  }

  @Override
  public boolean offers(Primitive primitive) {
    return real.offers(primitive);
  }

  @Override
  public AeadCipher newAead(CipherAlgorithm cipher, byte[] key) throws GeneralSecurityException {
    return real.newAead(cipher, key);
  }

  @Override
  public Cipher newCtr(CipherAlgorithm cipher, byte[] key, byte[] iv) throws GeneralSecurityException {
    return real.newCtr(cipher, key, iv);
  }

  @Override
  public Mac newHmac(HashAlgorithm hash, byte[] key) throws GeneralSecurityException {
    return real.newHmac(hash, key);
  }

  @Override
  public EphemeralKeyPair generateEphemeral(ExchangeAlgorithm exchange, SecureRandom random)
      throws GeneralSecurityException {
    return real.generateEphemeral(exchange, random);
  }

  @Override
  public EphemeralKeyPair ephemeralFromPrivate(ExchangeAlgorithm exchange, byte[] privateKey)
      throws GeneralSecurityException {
    return real.ephemeralFromPrivate(exchange, privateKey);
  }

  @Override
  public Signer newSigner(Primitive signature, KeySpec privateKey) throws GeneralSecurityException {
    return real.newSigner(signature, privateKey);
  }

  @Override
  public boolean verify(Primitive signature, KeySpec publicKey, byte[] message, byte[] sig)
      throws GeneralSecurityException {
    return real.verify(signature, publicKey, message, sig);
  }
}
