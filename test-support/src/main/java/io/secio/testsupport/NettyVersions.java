package io.secio.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.Version;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which Netty a suite runs on. A module's pom sets {@code secio.netty.expected} for surefire (its
 * {@code netty.version}: 4.2 by default, 4.1 when .ci/run passes {@code -Dnetty.version} or
 * {@code -Pnetty41}); a module's {@code NettyVersionTest} calls {@link #assertEveryJarIsExpected},
 * so that a run meant for 4.1 is not 4.2 by accident, nor a mix of both. Thread-safe.
 */
public final class NettyVersions {
  /** The system property the poms set. */
  public static final String PROPERTY = "secio.netty.expected";

  private NettyVersions() {}

  /** The Netty version the build says this suite runs on. */
  public static String expected() {
    String expected = System.getProperty(PROPERTY);
    assertNotNull(expected, PROPERTY + " is set by the module's pom for surefire");
    return expected;
  }

  /** Every Netty jar on the class path, by artifact id, with its version. */
  public static Map<String, String> onClassPath() {
    Map<String, String> versions = new TreeMap<>();
    Version.identify().forEach((artifact, v) -> versions.put(artifact, v.artifactVersion()));
    return versions;
  }

  /**
   * Asserts that every Netty jar on the class path is at {@link #expected()}, and that each of
   * {@code required} (artifact ids, e.g. {@code netty-codec-http}) is among them; netty-transport
   * always is.
   */
  public static void assertEveryJarIsExpected(String... required) {
    String expected = expected();
    Map<String, String> versions = onClassPath();
    versions.forEach((artifact, version) ->
        assertEquals(expected, version, () -> artifact + " of " + versions));
    assertTrue(versions.containsKey("netty-transport"), versions::toString);
    for (String artifact : required) {
      assertTrue(versions.containsKey(artifact), () -> "no " + artifact + " among " + versions);
    }
  }
}
