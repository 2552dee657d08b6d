package io.secio.crypto;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.function.Executable;
import org.opentest4j.TestAbortedException;

/** The JCA backends that load on this JVM, for tests that run on every one of them. */
final class TestBackends {
  static final List<String> NAMES =
      List.of(JcaProfile.CONSCRYPT, JcaProfile.JDK, JcaProfile.BOUNCY_CASTLE);

  private TestBackends() {}

  static List<JcaBackend> loaded() {
    List<JcaBackend> out = new ArrayList<>();
    for (String name : NAMES) {
      CryptoBackends.named(name).ifPresent(b -> out.add((JcaBackend) b));
    }
    return out;
  }

  /**
   * The backends that offer {@code primitive}; at least one must, or a test over "every backend"
   * would silently test nothing.
   */
  static List<JcaBackend> offering(Primitive primitive) {
    List<JcaBackend> out = new ArrayList<>();
    for (JcaBackend b : loaded()) {
      if (b.offers(primitive)) {
        out.add(b);
      }
    }
    assertFalse(out.isEmpty(), "no backend offers " + primitive);
    return out;
  }

  /**
   * A dynamic test whose failure message starts with its name, since surefire's reports show only
   * an index for dynamic tests.
   */
  static DynamicTest test(String name, Executable body) {
    return DynamicTest.dynamicTest(name, () -> {
      try {
        body.execute();
      } catch (TestAbortedException e) {
        throw e;
      } catch (Throwable t) {
        throw new AssertionError(name + ": " + t, t);
      }
    });
  }
}
