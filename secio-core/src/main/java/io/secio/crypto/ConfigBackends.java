package io.secio.crypto;

import io.secio.SecioConfig;
import java.util.Objects;

/**
 * How code inside this module reaches the {@link CryptoBackend} behind a {@link SecioConfig}'s
 * {@link io.secio.Backend} choice, and how tests and benchmarks hand a builder a backend of their
 * own (a spy, a failing one), without either becoming API: this package is not exported. {@link
 * SecioConfig} installs the one {@link Access} when its class initialises, as the JDK's {@code
 * SharedSecrets} do.
 *
 * <p>Thread-safe.
 */
public final class ConfigBackends {

  /** What {@link SecioConfig} lets this package do. */
  public interface Access {
    /** The backend a config's handshakes and frames use. */
    CryptoBackend backendOf(SecioConfig config);

    /** Makes {@code builder} build configs on {@code backend}, whatever its {@link io.secio.Backend}. */
    void setBackend(SecioConfig.Builder builder, CryptoBackend backend);
  }

  private static volatile Access access;

  private ConfigBackends() {}

  /**
   * Called once, by {@link SecioConfig}'s static initialiser.
   *
   * @throws IllegalStateException on a second call
   */
  public static synchronized void install(Access configAccess) {
    if (access != null) {
      throw new IllegalStateException("already installed");
    }
    access = Objects.requireNonNull(configAccess, "configAccess");
  }

  /** The backend {@code config}'s handshakes and frames use. */
  public static CryptoBackend of(SecioConfig config) {
    return access().backendOf(Objects.requireNonNull(config, "config"));
  }

  /** {@code builder}, set to build configs on {@code backend}; for tests and benchmarks. */
  public static SecioConfig.Builder with(SecioConfig.Builder builder, CryptoBackend backend) {
    access().setBackend(Objects.requireNonNull(builder, "builder"),
        Objects.requireNonNull(backend, "backend"));
    return builder;
  }

  /** A config or builder exists, so {@link SecioConfig} is initialised and has installed access. */
  private static Access access() {
    Access a = access;
    if (a == null) {
      throw new IllegalStateException("SecioConfig has not installed its access");
    }
    return a;
  }
}
