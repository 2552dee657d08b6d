package io.secio.crypto;

import java.util.Arrays;
import javax.crypto.SecretKey;

/**
 * A raw secret key whose bytes this project owns and can zero. A {@link
 * javax.crypto.spec.SecretKeySpec} keeps a copy nobody can reach (its {@code destroy()} is not
 * implemented on Java 17); this key gives each provider a copy at {@code init} through {@link
 * #getEncoded()}, and {@link #destroy()} zeroes its own. What a provider copied is the provider's.
 * Not thread-safe.
 */
final class DestroyableKey implements SecretKey {
  private static final long serialVersionUID = 1L;

  private final String algorithm;
  private final transient byte[] key;
  private transient boolean destroyed;

  DestroyableKey(byte[] key, String algorithm) {
    this.key = key.clone();
    this.algorithm = algorithm;
  }

  @Override
  public String getAlgorithm() {
    return algorithm;
  }

  @Override
  public String getFormat() {
    return "RAW";
  }

  /**
   * A copy of the key bytes.
   *
   * @throws IllegalStateException once destroyed
   */
  @Override
  public byte[] getEncoded() {
    if (destroyed) {
      throw new IllegalStateException("key destroyed");
    }
    return key.clone();
  }

  /** Zeroes the key bytes; later {@link #getEncoded()} calls fail. */
  @Override
  public void destroy() {
    Arrays.fill(key, (byte) 0);
    destroyed = true;
  }

  @Override
  public boolean isDestroyed() {
    return destroyed;
  }

  /** The array this key owns, for tests that check it was zeroed. */
  byte[] ownedBytes() {
    return key;
  }

  @Override
  public String toString() {
    return "DestroyableKey{" + algorithm + ", " + key.length + " bytes}";
  }
}
