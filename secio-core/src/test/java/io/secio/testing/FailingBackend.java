package io.secio.testing;

import io.secio.CipherAlgorithm;
import io.secio.ExchangeAlgorithm;
import io.secio.HashAlgorithm;
import io.secio.crypto.AeadCipher;
import io.secio.crypto.CryptoBackend;
import io.secio.crypto.EphemeralKeyPair;
import io.secio.crypto.Primitive;
import io.secio.crypto.Signer;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.spec.KeySpec;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.ShortBufferException;

/**
 * A real backend whose ephemeral keys, AEADs and AES-CTR ciphers start throwing on command, as a
 * provider with a bug or a lost hardware token would. Until told to fail it is the backend it wraps.
 * The switches may be flipped from any thread.
 */
public final class FailingBackend implements CryptoBackend {
  private final CryptoBackend delegate;
  private volatile RuntimeException onEphemeral;
  private volatile Exception onSeal;
  private volatile Exception onOpen;
  private volatile Exception onCtr;

  public FailingBackend(CryptoBackend delegate) {
    this.delegate = delegate;
  }

  /** Makes every later ephemeral key generation throw {@code e}. */
  public void failEphemeralKeys(RuntimeException e) {
    onEphemeral = e;
  }

  /**
   * Makes every later AEAD seal throw {@code e} (unchecked, or a {@code GeneralSecurityException}),
   * after writing part of its output.
   */
  public void failSealing(Exception e) {
    onSeal = throwable(e, GeneralSecurityException.class);
  }

  /** Makes every later AEAD open throw {@code e} (unchecked, or a {@code GeneralSecurityException}). */
  public void failOpening(Exception e) {
    onOpen = throwable(e, GeneralSecurityException.class);
  }

  /**
   * Makes every later keystream update of the AES-CTR ciphers this backend made, whichever direction
   * they serve, throw {@code e}: unchecked, or the one checked exception an update may throw, a {@code
   * ShortBufferException}.
   */
  public void failCtr(Exception e) {
    onCtr = throwable(e, ShortBufferException.class);
  }

  /** Sets every switch back: from now on it is the backend it wraps again. */
  public void stopFailing() {
    onEphemeral = null;
    onSeal = null;
    onOpen = null;
    onCtr = null;
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
    AeadCipher real = delegate.newAead(cipher, key);
    return new ForwardingAead(real) {
      @Override
      public void seal(byte[] nonce, ByteBuffer plaintext, ByteBuffer out)
          throws GeneralSecurityException {
        Exception e = onSeal;
        if (e != null) {
          out.put((byte) 0); // a provider that fails half-way has often written something
          throw raise(e);
        }
        real.seal(nonce, plaintext, out);
      }

      @Override
      public void open(byte[] nonce, ByteBuffer in, ByteBuffer out)
          throws GeneralSecurityException {
        Exception e = onOpen;
        if (e != null) {
          throw raise(e);
        }
        real.open(nonce, in, out);
      }
    };
  }

  @Override
  public Cipher newCtr(CipherAlgorithm cipher, byte[] key, byte[] iv) throws GeneralSecurityException {
    return FailingCtr.wrap(delegate.newCtr(cipher, key, iv), key, iv, () -> onCtr);
  }

  @Override
  public Mac newHmac(HashAlgorithm hash, byte[] key) throws GeneralSecurityException {
    return delegate.newHmac(hash, key);
  }

  @Override
  public Signer newSigner(Primitive signature, KeySpec privateKey) throws GeneralSecurityException {
    return delegate.newSigner(signature, privateKey);
  }

  @Override
  public boolean verify(Primitive signature, KeySpec publicKey, byte[] message, byte[] sig)
      throws GeneralSecurityException {
    return delegate.verify(signature, publicKey, message, sig);
  }

  @Override
  public EphemeralKeyPair generateEphemeral(ExchangeAlgorithm exchange, SecureRandom random)
      throws GeneralSecurityException {
    RuntimeException e = onEphemeral;
    if (e != null) {
      throw e;
    }
    return delegate.generateEphemeral(exchange, random);
  }

  @Override
  public EphemeralKeyPair ephemeralFromPrivate(ExchangeAlgorithm exchange, byte[] privateKey)
      throws GeneralSecurityException {
    return delegate.ephemeralFromPrivate(exchange, privateKey);
  }

  private static Exception throwable(Exception e, Class<? extends Exception> checked) {
    if (e != null && !(e instanceof RuntimeException) && !checked.isInstance(e)) {
      throw new IllegalArgumentException("the provider cannot throw " + e);
    }
    return e;
  }

  /** {@code e}, an unchecked exception or a {@code GeneralSecurityException}, thrown. */
  private static GeneralSecurityException raise(Exception e) throws GeneralSecurityException {
    if (e instanceof GeneralSecurityException checked) {
      throw checked;
    }
    throw (RuntimeException) e;
  }
}
