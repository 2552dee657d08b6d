package io.secio.crypto;

import java.security.Provider;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where backends come from. Each named backend is built once per JVM, on first request; its
 * primitives prove themselves with known-answer self-tests before they are offered.
 *
 * <p>The {@linkplain #defaultBackend() default} is normally {@code auto}, a per-primitive choice. The
 * system property {@value #BACKEND_PROPERTY} pins one backend for the whole JVM instead:
 *
 * <ul>
 *   <li>{@code auto} (or unset): per primitive, the fastest self-tested backend on this JVM;
 *   <li>{@code conscrypt}: Conscrypt (BoringSSL) only; fails if its natives do not load here;
 *   <li>{@code jdk}: the JDK's default JCA providers only;
 *   <li>{@code bouncycastle}: Bouncy Castle only (a private provider instance, never registered).
 * </ul>
 *
 * The property is read once, when {@link #defaultBackend()} is first called.
 *
 * <p>Thread-safe.
 */
public final class CryptoBackends {
  /** The system property that pins the default backend: {@code conscrypt|jdk|bouncycastle|auto}. */
  public static final String BACKEND_PROPERTY = "secio.backend";

  private static final Object LOCK = new Object();
  private static volatile CryptoBackend defaultBackend;

  private CryptoBackends() {}

  /**
   * The default backend: unless {@value #BACKEND_PROPERTY} pins one, for each primitive the fastest
   * self-tested backend on this JVM (Conscrypt for AEAD and key exchange where its natives load; the
   * JDK for AES-CTR and HMAC; Bouncy Castle as the last resort). Its {@link CryptoBackend#nameFor}
   * tells which backend serves a primitive; a primitive no backend offers fails with {@link
   * io.secio.SecioException.Reason#UNAVAILABLE}.
   *
   * @throws IllegalStateException if the property names an unknown backend or one that does not
   *     load on this JVM (nothing is cached then; a later call tries again)
   */
  public static CryptoBackend defaultBackend() {
    CryptoBackend backend = defaultBackend;
    if (backend == null) {
      synchronized (LOCK) {
        backend = defaultBackend;
        if (backend == null) {
          backend = select(System.getProperty(BACKEND_PROPERTY), CryptoBackends::named);
          defaultBackend = backend;
        }
      }
    }
    return backend;
  }

  /**
   * One named backend ({@code conscrypt}, {@code jdk}, {@code bouncycastle}) if it loads here; empty
   * for any other name. The same instance is returned every time.
   */
  public static Optional<CryptoBackend> named(String name) {
    if (name == null) {
      return Optional.empty();
    }
    switch (name) {
      case JcaProfile.CONSCRYPT:
        return ConscryptHolder.BACKEND;
      case JcaProfile.JDK:
        return JdkHolder.BACKEND;
      case JcaProfile.BOUNCY_CASTLE:
        return BouncyCastleHolder.BACKEND;
      default:
        return Optional.empty();
    }
  }

  /**
   * The backend a value of {@value #BACKEND_PROPERTY} asks for, found through {@code named} (tests
   * pass a lookup that pretends a backend is missing); null or blank means auto.
   */
  static CryptoBackend select(String choice, Function<String, Optional<CryptoBackend>> named) {
    String name = choice == null ? "" : choice.trim().toLowerCase(Locale.ROOT);
    if (name.isEmpty() || name.equals(CompositeBackend.NAME)) {
      return auto(named);
    }
    if (!name.equals(JcaProfile.CONSCRYPT)
        && !name.equals(JcaProfile.JDK)
        && !name.equals(JcaProfile.BOUNCY_CASTLE)) {
      throw new IllegalStateException(
          "-D" + BACKEND_PROPERTY + "=" + choice
              + " is not a backend; use conscrypt, jdk, bouncycastle or auto");
    }
    return named.apply(name)
        .orElseThrow(() -> new IllegalStateException(
            "-D" + BACKEND_PROPERTY + "=" + name + " pins a backend that does not load on this JVM"
                + " (os.name=" + System.getProperty("os.name")
                + ", os.arch=" + System.getProperty("os.arch") + ")"));
  }

  /**
   * A new per-primitive composite of the backends that {@code named} finds, each looked up (and
   * loaded) only when a primitive's preference order reaches it.
   */
  static CryptoBackend auto(Function<String, Optional<CryptoBackend>> named) {
    return CompositeBackend.choose(named);
  }

  /**
   * A new provider instance of Conscrypt (BoringSSL), or empty where its native library does not load
   * on this platform (logged at debug, never thrown): for primitives outside the backends, such as
   * identity signatures, that still want BoringSSL where it runs.
   */
  public static Optional<Provider> conscryptProvider() {
    return JcaProfile.conscryptProvider();
  }

  // One holder per backend, so that asking for the JDK never loads Conscrypt's natives.
  private static final class ConscryptHolder {
    static final Optional<CryptoBackend> BACKEND = JcaProfile.conscrypt().map(JcaBackend::new);
  }

  private static final class JdkHolder {
    static final Optional<CryptoBackend> BACKEND = Optional.of(new JcaBackend(JcaProfile.jdk()));
  }

  private static final class BouncyCastleHolder {
    static final Optional<CryptoBackend> BACKEND = JcaProfile.bouncyCastle().map(JcaBackend::new);
  }
}
