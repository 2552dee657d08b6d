package io.secio.crypto;

import com.google.gson.JsonObject;
import io.secio.testing.Vectors;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The Wycheproof vector files of this package, each parsed once per JVM. JUnit calls a test factory
 * again for every dynamic test that is selected on its own, as PIT does for each test of each
 * mutant: without this, every one of some ten thousand such runs parsed a file of up to 550 KB
 * again. The parsed files are only read, never changed.
 */
final class WycheproofFiles {
  private static final ConcurrentMap<String, JsonObject> PARSED = new ConcurrentHashMap<>();

  private WycheproofFiles() {}

  /** The parsed {@code vectors/wycheproof/<name>}. */
  static JsonObject suite(String name) {
    return PARSED.computeIfAbsent(name, Vectors::wycheproof);
  }
}
