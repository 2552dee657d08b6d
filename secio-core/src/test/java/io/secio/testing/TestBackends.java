package io.secio.testing;

import io.secio.crypto.CryptoBackend;
import io.secio.crypto.CryptoBackends;
import io.secio.crypto.Primitive;
import java.util.ArrayList;
import java.util.List;

/** The backends a test runs against: every named one that loads here. */
public final class TestBackends {
  public static final List<String> NAMES = List.of("conscrypt", "jdk", "bouncycastle");

  private TestBackends() {}

  /** Every named backend that loads on this JVM. */
  public static List<CryptoBackend> all() {
    List<CryptoBackend> backends = new ArrayList<>();
    for (String name : NAMES) {
      CryptoBackends.named(name).ifPresent(backends::add);
    }
    if (backends.isEmpty()) {
      throw new IllegalStateException("no crypto backend loads");
    }
    return backends;
  }

  /** Every named backend that offers {@code primitive}. */
  public static List<CryptoBackend> offering(Primitive primitive) {
    return all().stream().filter(b -> b.offers(primitive)).toList();
  }
}
