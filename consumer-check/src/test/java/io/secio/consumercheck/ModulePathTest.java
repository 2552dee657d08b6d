package io.secio.consumercheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Starts {@link ModulePathCheck} in a new JVM with everything on the module path: the secio modules
 * resolve with their requirements, a user's module sees the API packages and none of the internals,
 * and a handshake works across the qualified exports.
 */
class ModulePathTest {
  @Test
  void secioResolvesAsNamedModulesExportingOnlyTheApi() throws Exception {
    List<String> report = runOnModulePath(modulePath());

    assertEquals(List.of(
        "named io.secio.consumercheck io.secio.core io.secio.netty",
        "exported io.secio true",
        "exported io.secio.protocol true",
        "exported io.secio.identity true",
        "exported io.secio.handshake true",
        "exported io.secio.frame true",
        "exported io.secio.frame.cipher false",
        "exported io.secio.crypto false",
        "exported io.secio.netty.stage false",
        "conscrypt resolved false"), report.subList(0, 10), String.join("\n", report));
    assertTrue(report.get(10).startsWith("echoed hello over "), report.get(10));
    assertEquals(11, report.size(), String.join("\n", report));
  }

  /** What io.secio.core's module descriptor tells a module-path user who wants BoringSSL to do. */
  @Test
  void conscryptAddedAsAModuleServesTheCipher() throws Exception {
    Path conscrypt = Path.of(System.getProperty("conscrypt.jar"));
    assertTrue(Files.isRegularFile(conscrypt), conscrypt + " (resolved by secio-core's build)");

    List<String> report = runOnModulePath(modulePath() + File.pathSeparator + conscrypt,
        "--add-modules", "org.conscrypt", "--enable-native-access=org.conscrypt");

    assertEquals("conscrypt resolved true", report.get(9), String.join("\n", report));
    assertTrue(report.get(10).matches("echoed hello over \\S+ by conscrypt"), report.get(10));
    assertEquals(11, report.size(), String.join("\n", report));
  }

  private static List<String> runOnModulePath(String modulePath, String... options)
      throws IOException, InterruptedException {
    return ModulePathJvm.run(modulePath, ModulePathCheck.class, List.of(options));
  }

  private static String modulePath() {
    return ModulePathJvm.modulePath();
  }
}
