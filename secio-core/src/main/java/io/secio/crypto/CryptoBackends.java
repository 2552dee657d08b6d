package io.secio.crypto;

import java.util.Optional;

/**
 * Where backends come from. STUB: to be replaced by the real implementation.
 */
public final class CryptoBackends {
  private CryptoBackends() {}

  /**
   * The default: for each primitive, the fastest self-tested backend on this JVM (Conscrypt for AEAD
   * and ECDH where its natives load; the JDK for AES-CTR and HMAC; Bouncy Castle as the last resort).
   */
  public static CryptoBackend defaultBackend() {
    throw new UnsupportedOperationException("not yet");
  }

  /** One named backend ({@code conscrypt}, {@code jdk}, {@code bouncycastle}) if it loads here. */
  public static Optional<CryptoBackend> named(String name) {
    throw new UnsupportedOperationException("not yet");
  }
}
