package io.secio.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs a node.js script of a module's {@code src/test/js} folder: its input on stdin, its output
 * from stdout. Without node or the folder's npm packages the calling test is aborted, and with
 * {@code CI=true} it fails instead: a CI run must not quietly skip a cross-check.
 */
public final class NodeScript {
  private static final long WAIT_SECONDS = 120;

  private NodeScript() {}

  /** The module's {@code src/test/js} folder (surefire runs in the module's directory). */
  public static Path jsFolder() {
    return Paths.get(System.getProperty("basedir", ""), "src", "test", "js").toAbsolutePath();
  }

  /**
   * Runs {@code node script} in {@code dir}, writes {@code stdin} and returns all of stdout once it
   * exited with status 0.
   *
   * @param requiredModule a package under {@code node_modules} the script needs
   */
  public static String run(Path dir, String script, String requiredModule, String stdin)
      throws IOException, InterruptedException {
    Path node = requireInstalled(dir, requiredModule);
    Process process = new ProcessBuilder(node.toString(), dir.resolve(script).toString())
        .directory(dir.toFile())
        .start();
    CompletableFuture<String> out = drain(process.getInputStream());
    CompletableFuture<String> err = drain(process.getErrorStream());
    try (OutputStream in = process.getOutputStream()) {
      in.write(stdin.getBytes(StandardCharsets.UTF_8));
    }
    if (!process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      fail(script + " did not finish in " + WAIT_SECONDS + " s: " + err.join());
    }
    if (process.exitValue() != 0) {
      fail(script + " exited with " + process.exitValue() + ": " + err.join());
    }
    return out.join();
  }

  /**
   * node's path, once node is on the PATH and {@code dir} holds {@code requiredModule} under {@code
   * node_modules}; otherwise the calling test is aborted, or fails with {@code CI=true}.
   */
  public static Path requireInstalled(Path dir, String requiredModule) {
    Path node = onPath("node");
    String missing = node == null
        ? "`node` is not on the PATH"
        : !Files.isDirectory(dir.resolve("node_modules").resolve(requiredModule))
            ? requiredModule + " is missing: run npm ci --prefix " + dir + " --no-audit --no-fund --ignore-scripts"
            : null;
    if (missing != null) {
      if ("true".equals(System.getenv("CI"))) {
        fail("node cross-check cannot run (CI=true): " + missing);
      }
      Assumptions.abort(missing);
    }
    return node;
  }

  private static Path onPath(String program) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path candidate = Paths.get(dir.isEmpty() ? "." : dir, program);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return candidate.toAbsolutePath();
      }
    }
    return null;
  }

  private static CompletableFuture<String> drain(InputStream stream) {
    return CompletableFuture.supplyAsync(() -> {
      try (stream) {
        return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }
}
