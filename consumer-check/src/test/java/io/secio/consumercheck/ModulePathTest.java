package io.secio.consumercheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Starts {@link ModulePathCheck} in a new JVM with everything on the module path: the secio modules
 * resolve with their requirements, a user's module sees the API packages and none of the internals,
 * and a handshake works across the qualified exports.
 */
class ModulePathTest {
  /** Only guards against a hang; the run takes about a second. */
  private static final long GUARD_SECONDS = 300;

  @Test
  void secioResolvesAsNamedModulesExportingOnlyTheApi() throws Exception {
    List<String> report = runOnModulePath(modulePath());

    assertEquals(List.of(
        "named io.secio.consumercheck io.secio.core io.secio.netty",
        "exported io.secio true",
        "exported io.secio.identity true",
        "exported io.secio.handshake false",
        "exported io.secio.frame false",
        "exported io.secio.crypto false",
        "conscrypt resolved false"), report.subList(0, 7), String.join("\n", report));
    assertTrue(report.get(7).startsWith("echoed hello over "), report.get(7));
    assertEquals(8, report.size(), String.join("\n", report));
  }

  /** What io.secio.core's module descriptor tells a module-path user who wants BoringSSL to do. */
  @Test
  void conscryptAddedAsAModuleServesTheCipher() throws Exception {
    Path conscrypt = Path.of(System.getProperty("conscrypt.jar"));
    assertTrue(Files.isRegularFile(conscrypt), conscrypt + " (resolved by secio-core's build)");

    List<String> report = runOnModulePath(modulePath() + File.pathSeparator + conscrypt,
        "--add-modules", "org.conscrypt", "--enable-native-access=org.conscrypt");

    assertEquals("conscrypt resolved true", report.get(6), String.join("\n", report));
    assertTrue(report.get(7).matches("echoed hello over \\S+ by conscrypt"), report.get(7));
    assertEquals(8, report.size(), String.join("\n", report));
  }

  /** Surefire runs these tests on the class path; its entries but the test classes (no module). */
  private static String modulePath() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> !Path.of(entry).endsWith("test-classes"))
        .collect(Collectors.joining(File.pathSeparator));
  }

  private static List<String> runOnModulePath(String modulePath, String... options)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
    command.addAll(List.of(options));
    command.addAll(List.of("-p", modulePath,
        "-m", "io.secio.consumercheck/" + ModulePathCheck.class.getName()));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    process.getOutputStream().close();
    boolean exited = process.waitFor(GUARD_SECONDS, TimeUnit.SECONDS);
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!exited) {
      process.destroyForcibly();
    }
    assertTrue(exited, "no exit within the guard:\n" + output);
    assertEquals(0, process.exitValue(), output);
    return output.lines().filter(line -> !line.isBlank()).toList();
  }
}
