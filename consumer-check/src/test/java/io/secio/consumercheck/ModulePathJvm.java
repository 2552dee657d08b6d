package io.secio.consumercheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/** A new JVM running a main class of a named module with everything on the module path. */
final class ModulePathJvm {
  /** Only guards against a hang; a run takes seconds. */
  private static final long GUARD_SECONDS = 600;

  private ModulePathJvm() {}

  /** Surefire runs the tests on the class path: its entries but the test classes (no module). */
  static String modulePath() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> !Path.of(entry).endsWith("test-classes"))
        .collect(Collectors.joining(File.pathSeparator));
  }

  /** The output lines, not blank, of {@code main} run with {@code options} and {@code args}; it must exit 0. */
  static List<String> run(String modulePath, Class<?> main, List<String> options, String... args)
      throws IOException, InterruptedException {
    // On surefire's class path the class is in no module: name the one it is in on the module path.
    return run(modulePath, "io.secio.consumercheck/" + main.getName(), options, args);
  }

  /** As above, for {@code main} given as {@code module/class}. */
  static List<String> run(String modulePath, String main, List<String> options, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
    command.addAll(options);
    command.addAll(List.of("-p", modulePath, "-m", main));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    process.getOutputStream().close();
    // Read before waiting: a full pipe would block the child.
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    boolean exited = process.waitFor(GUARD_SECONDS, TimeUnit.SECONDS);
    if (!exited) {
      process.destroyForcibly();
    }
    assertTrue(exited, "no exit within the guard:\n" + output);
    assertEquals(0, process.exitValue(), output);
    return output.lines().filter(line -> !line.isBlank()).toList();
  }
}
