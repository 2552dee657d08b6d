package io.secio.ckb;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Test-only: closes what a test kept, the last kept first, after each test, passed or failed:
 * {@code @RegisterExtension final Closing closing = new Closing();}.
 */
final class Closing implements AfterEachCallback {
  private final List<AutoCloseable> kept = new ArrayList<>();

  /** Keeps {@code c} to close after the test; returns it. */
  <T extends AutoCloseable> T keep(T c) {
    kept.add(c);
    return c;
  }

  /** How many things are kept: a counter for file names. */
  int size() {
    return kept.size();
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    for (int i = kept.size() - 1; i >= 0; i--) {
      kept.get(i).close();
    }
    kept.clear();
  }
}
