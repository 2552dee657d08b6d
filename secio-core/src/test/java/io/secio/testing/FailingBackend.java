package io.secio.testing;

import io.secio.crypto.AeadCipher;
import io.secio.crypto.CryptoBackend;
import io.secio.crypto.EphemeralKeyPair;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.crypto.Cipher;
import javax.crypto.ShortBufferException;

/**
 * A real backend whose ephemeral keys, AEADs and AES-CTR ciphers start throwing on command, as a
 * provider with a bug or a lost hardware token would. Until told to fail it is the backend it wraps.
 * The switches may be flipped from any thread.
 */
public final class FailingBackend extends ForwardingBackend {
  private volatile RuntimeException onEphemeral;
  private volatile Exception onSeal;
  private volatile Exception onOpen;
  private volatile Exception onCtr;

  public FailingBackend(CryptoBackend delegate) {
    super(delegate);
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
  public AeadCipher newAead(CipherAlgorithm cipher, byte[] key) throws GeneralSecurityException {
    return new ForwardingAead(super.newAead(cipher, key)) { // real, in here: the wrapped AEAD
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
    return FailingCtr.wrap(real.newCtr(cipher, key, iv), key, iv, () -> onCtr);
  }

  @Override
  public EphemeralKeyPair generateEphemeral(ExchangeAlgorithm exchange, SecureRandom random)
      throws GeneralSecurityException {
    RuntimeException e = onEphemeral;
    if (e != null) {
      throw e;
    }
    return real.generateEphemeral(exchange, random);
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
