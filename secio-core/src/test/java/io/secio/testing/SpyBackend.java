package io.secio.testing;

import io.secio.crypto.AeadCipher;
import io.secio.crypto.CryptoBackend;
import io.secio.crypto.EphemeralKeyPair;
import io.secio.crypto.Primitive;
import io.secio.crypto.Signer;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.protocol.SecioException;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.spec.KeySpec;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import javax.crypto.Cipher;
import javax.crypto.Mac;

/**
 * A real backend that keeps a record of what passes through it, so that a test can see secrets wiped
 * without reflection: the very key arrays its callers handed it, the shared secrets it handed back,
 * and whether every ephemeral key pair and AEAD it made was destroyed. It can also withhold
 * primitives, as a backend would that lacks them. Not thread-safe.
 */
public final class SpyBackend implements CryptoBackend {
  private final CryptoBackend delegate;
  private final Set<Primitive> withheld = EnumSet.noneOf(Primitive.class);
  private final List<byte[]> keyArguments = new ArrayList<>();
  private final List<byte[]> sharedSecrets = new ArrayList<>();
  private final List<String> made = new ArrayList<>();
  private final List<String> destroyed = new ArrayList<>();
  private int ephemeralKeys;
  private final List<Primitive> signed = new ArrayList<>();
  private final List<Primitive> verified = new ArrayList<>();

  public SpyBackend(CryptoBackend delegate) {
    this.delegate = delegate;
  }

  /** Stops offering {@code primitives}; returns this. */
  public SpyBackend withholding(Primitive... primitives) {
    withheld.addAll(Set.of(primitives));
    return this;
  }

  /** The primitive of every signature made through this backend, in order. */
  public List<Primitive> signed() {
    return signed;
  }

  /** The primitive of every signature checked through this backend, in order. */
  public List<Primitive> verified() {
    return verified;
  }

  /** How many ephemeral key pairs were made. */
  public int ephemeralKeys() {
    return ephemeralKeys;
  }

  /** Every key, iv and MAC key array a caller passed to newAead, newCtr or newHmac, as passed. */
  public List<byte[]> keyArguments() {
    return keyArguments;
  }

  /** Every shared secret an ephemeral key pair returned, as returned. */
  public List<byte[]> sharedSecrets() {
    return sharedSecrets;
  }

  /** The ephemeral key pairs and AEADs made and not destroyed, by name. */
  public List<String> undestroyed() {
    List<String> left = new ArrayList<>(made);
    destroyed.forEach(left::remove);
    return left;
  }

  /** How many ephemeral key pairs and AEADs were made. */
  public int objectsMade() {
    return made.size();
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
  public String nameFor(Primitive primitive) {
    return delegate.nameFor(primitive);
  }

  @Override
  public AeadCipher newAead(CipherAlgorithm cipher, byte[] key) throws GeneralSecurityException {
    keyArguments.add(key);
    AeadCipher real = delegate.newAead(cipher, key);
    String name = cipher.wireName() + " #" + made.size();
    made.add(name);
    return new ForwardingAead(real) {
      @Override
      public void destroy() {
        destroyed.add(name);
        real.destroy();
      }
    };
  }

  @Override
  public Cipher newCtr(CipherAlgorithm cipher, byte[] key, byte[] iv) throws GeneralSecurityException {
    keyArguments.add(key);
    keyArguments.add(iv);
    return delegate.newCtr(cipher, key, iv);
  }

  @Override
  public Mac newHmac(HashAlgorithm hash, byte[] key) throws GeneralSecurityException {
    keyArguments.add(key);
    return delegate.newHmac(hash, key);
  }

  @Override
  public EphemeralKeyPair generateEphemeral(ExchangeAlgorithm exchange, SecureRandom random)
      throws GeneralSecurityException {
    return spied(delegate.generateEphemeral(exchange, random));
  }

  @Override
  public EphemeralKeyPair ephemeralFromPrivate(ExchangeAlgorithm exchange, byte[] privateKey)
      throws GeneralSecurityException {
    return spied(delegate.ephemeralFromPrivate(exchange, privateKey));
  }

  @Override
  public Signer newSigner(Primitive signature, KeySpec privateKey) throws GeneralSecurityException {
    Signer real = delegate.newSigner(signature, privateKey);
    return message -> {
      signed.add(signature);
      return real.sign(message);
    };
  }

  @Override
  public boolean verify(Primitive signature, KeySpec publicKey, byte[] message, byte[] sig)
      throws GeneralSecurityException {
    verified.add(signature);
    return delegate.verify(signature, publicKey, message, sig);
  }

  private EphemeralKeyPair spied(EphemeralKeyPair real) {
    ephemeralKeys++;
    String name = real.exchange().wireName() + " #" + made.size();
    made.add(name);
    return new ForwardingEphemeralKeyPair(real) {
      @Override
      public byte[] agree(byte[] remotePublicKey) throws SecioException {
        byte[] secret = real.agree(remotePublicKey);
        sharedSecrets.add(secret);
        return secret;
      }

      @Override
      public void destroy() {
        destroyed.add(name);
        real.destroy();
      }
    };
  }

  /** Whether every byte of {@code array} is zero. */
  public static boolean isZero(byte[] array) {
    for (byte b : array) {
      if (b != 0) {
        return false;
      }
    }
    return true;
  }
}
