package io.secio.crypto;

import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where backends come from. Each named backend is built once per JVM, on first request; its
 * primitives prove themselves with known-answer self-tests before they are offered. Which one a
 * connection uses is its {@link io.secio.SecioConfig}'s choice ({@link io.secio.Backend}, by its
 * id); nothing here reads a system property.
 *
 * <ul>
 *   <li>{@code auto}: per primitive, the fastest self-tested backend on this JVM;
 *   <li>{@code conscrypt}: Conscrypt (BoringSSL) only; fails if its natives do not load here;
 *   <li>{@code jdk}: the JDK's default JCA providers only;
 *   <li>{@code bouncycastle}: Bouncy Castle only (a private provider instance, never registered).
 * </ul>
 *
 * <p>Thread-safe.
 */
public final class CryptoBackends {

  private CryptoBackends() {}

  /**
   * The {@code auto} backend, one per JVM: for each primitive the fastest self-tested backend here
   * (Conscrypt for AEAD, key exchange, Ed25519 and ECDSA where its natives load; the JDK for AES-CTR,
   * HMAC and RSA; Bouncy Castle as the last resort). Its {@link CryptoBackend#nameFor} tells which
   * backend serves a primitive; a primitive no backend offers fails with {@link
   * io.secio.protocol.SecioException.Reason#UNAVAILABLE}. It also serves {@link
   * io.secio.identity.IdentityKeyPair#sign} and {@link io.secio.identity.IdentityPublicKey#verify}
   * outside a handshake.
   */
  public static CryptoBackend defaultBackend() {
    return AutoHolder.BACKEND;
  }

  /**
   * The backend of a choice by its id: the {@linkplain #defaultBackend() auto} one for {@code auto},
   * else the named one.
   *
   * @throws IllegalStateException if the id names no backend, or one that does not load on this JVM
   */
  public static CryptoBackend of(String id) {
    return id.equals(CompositeBackend.NAME) ? defaultBackend() : select(id, CryptoBackends::named);
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
   * The backend a name asks for, found through {@code named} (tests pass a lookup that pretends a
   * backend is missing); null or blank means a new auto backend.
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
          choice + " is not a backend; use conscrypt, jdk, bouncycastle or auto");
    }
    return named.apply(name)
        .orElseThrow(() -> new IllegalStateException(
            "the " + name + " backend does not load on this JVM"
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

  private static final class AutoHolder {
    static final CryptoBackend BACKEND = auto(CryptoBackends::named);
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
