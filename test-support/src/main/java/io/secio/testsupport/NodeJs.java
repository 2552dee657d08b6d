package io.secio.testsupport;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * The node.js scripts of the modules' {@code src/test/js} folders, run as {@link ChildProcess}es:
 * {@link #start} for a peer that runs beside the test, {@link #run} for a script that reads stdin and
 * prints its answer. {@link #requireInstalled} first: without node on the PATH, or without the
 * folder's npm packages ({@code npm ci --prefix FOLDER}, as {@code scripts/test.sh} runs it), the
 * calling test is aborted, and with {@code CI=true} it fails instead: a CI run must not quietly skip
 * a cross-check. Thread-safe.
 */
public final class NodeJs {
  /** node's path, looked up once: empty when it is not on the PATH. */
  private static volatile Optional<Path> node;

  private NodeJs() {}

  /** This module's {@code src/test/js} folder (surefire and failsafe run in the module's directory). */
  public static Path jsFolder() {
    return Paths.get(System.getProperty("basedir", ""), "src", "test", "js").toAbsolutePath();
  }

  /** The {@code src/test/js} folder of {@code module}, a sibling of this one (e.g. {@code secio-netty}). */
  public static Path jsFolder(String module) {
    return Paths.get(System.getProperty("basedir", ""), "..", module, "src", "test", "js").toAbsolutePath()
        .normalize();
  }

  /**
   * Returns once node is on the PATH and {@code folder} holds each of {@code packages} under {@code
   * node_modules}; otherwise aborts the calling test, or fails it with {@code CI=true}.
   */
  public static void requireInstalled(Path folder, String... packages) {
    missing(folder, packages).ifPresent(missing -> {
      if ("true".equals(System.getenv("CI"))) {
        fail("a node.js cross-check cannot run (CI=true): " + missing);
      }
      Assumptions.abort(missing);
    });
  }

  /**
   * What is missing for {@code node} to run a script of {@code folder} that needs {@code packages},
   * as the install step to take; empty when nothing is. For a test that must fail rather than abort.
   */
  public static Optional<String> missing(Path folder, String... packages) {
    if (node().isEmpty()) {
      return Optional.of("`node` is not on the PATH");
    }
    for (String p : packages) {
      if (!Files.isDirectory(folder.resolve("node_modules").resolve(p))) {
        return Optional.of("npm package " + p + " is missing: run npm ci --prefix " + folder
            + " --no-audit --no-fund --ignore-scripts");
      }
    }
    return Optional.empty();
  }

  /** Starts {@code node script args...} in {@code folder}; its events are the caller's to read. */
  public static ChildProcess start(Path folder, String script, List<String> args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(nodeOrAbort().toString());
    command.add(folder.resolve(script).toString());
    command.addAll(args);
    return ChildProcess.start(script + " " + String.join(" ", args), command, folder, Map.of());
  }

  /**
   * Runs {@code node script} in {@code folder} (once {@link #requireInstalled} with {@code
   * requiredPackage}), writes {@code stdin}, and returns all of its stdout once it exited with status 0.
   */
  public static String run(Path folder, String script, String requiredPackage, String stdin)
      throws IOException, InterruptedException {
    requireInstalled(folder, requiredPackage);
    try (ChildProcess process = start(folder, script, List.of())) {
      process.send(stdin);
      int status = process.awaitExit();
      if (status != 0) {
        fail(script + " exited with " + status + ": " + process);
      }
      return String.join("\n", process.outLines()) + "\n";
    }
  }

  private static Path nodeOrAbort() {
    requireInstalled(Paths.get("."));
    return node().orElseThrow();
  }

  private static Optional<Path> node() {
    Optional<Path> found = node;
    if (found == null) {
      found = Optional.empty();
      for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
        Path candidate = Paths.get(dir.isEmpty() ? "." : dir, "node");
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          found = Optional.of(candidate.toAbsolutePath());
          break;
        }
      }
      node = found;
    }
    return found;
  }
}
