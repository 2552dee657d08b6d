package io.secio;

import java.util.Locale;
import java.util.Optional;

/**
 * Which crypto backend serves a {@link SecioConfig}'s handshakes and frames: every primitive, the
 * identity signatures included. Each backend proves each primitive with a known-answer self-test
 * before it is used; a primitive that fails is not offered.
 *
 * <p>The default is {@link #AUTO}, unless the system property {@value SecioConfig#BACKEND_PROPERTY}
 * names another (read by {@link SecioConfig.Builder#build()} when no backend was set).
 */
public enum Backend {
  /** Per primitive, the fastest backend on this JVM that passed its self-test. */
  AUTO("auto"),
  /** Conscrypt (BoringSSL) only; a config fails to build where its natives do not load. */
  CONSCRYPT("conscrypt"),
  /** The JDK's default JCA providers only (secp256k1, which the JDK lacks, is Bouncy Castle's). */
  JDK("jdk"),
  /** Bouncy Castle only: a private provider instance, never registered globally. */
  BOUNCY_CASTLE("bouncycastle");

  private final String id;

  Backend(String id) {
    this.id = id;
  }

  /**
   * The backend's short name, as {@link SecioSession#cipherBackend()} reports it and the system
   * property takes it: {@code auto}, {@code conscrypt}, {@code jdk} or {@code bouncycastle}.
   */
  public String id() {
    return id;
  }

  /** The backend with this {@link #id()}, ignoring case and surrounding blanks; empty for any other. */
  public static Optional<Backend> fromId(String id) {
    if (id == null) {
      return Optional.empty();
    }
    String wanted = id.trim().toLowerCase(Locale.ROOT);
    for (Backend b : values()) {
      if (b.id.equals(wanted)) {
        return Optional.of(b);
      }
    }
    return Optional.empty();
  }
}
