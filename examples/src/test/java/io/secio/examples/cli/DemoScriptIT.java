package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.testsupport.ChildProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/demo.sh} prints clean text, from its first byte. Maven 3.8 with jansi 2 (Debian's
 * packages, for one) writes a colour reset {@code ESC[0m} to stdout and stderr as it exits, even with
 * {@code -B -q} and both redirected. The script's own build is done by real Maven here too, on an
 * empty project: building this repository again from inside its build would rewrite the jar that
 * the other tests run.
 */
class DemoScriptIT {
  private static final Path REPOSITORY = Path.of(System.getProperty("basedir", "."), "..");

  @RegisterExtension
  final Processes processes = new Processes();

  @TempDir
  Path dir;

  @Test
  void demoShPrintsNoEscapeSequence() throws Exception {
    String mavenHome = System.getProperty("maven.home");
    assertNotNull(mavenHome, "failsafe passes maven.home (examples/pom.xml)");
    Files.writeString(dir.resolve("pom.xml"), "<project><modelVersion>4.0.0</modelVersion><groupId>demo</groupId>"
        + "<artifactId>empty</artifactId><version>1</version><packaging>pom</packaging></project>\n");
    Path bin = Files.createDirectory(dir.resolve("bin"));
    Path mvn = Files.writeString(bin.resolve("mvn"), "#!/bin/sh\nexec '" + Path.of(mavenHome, "bin", "mvn")
        + "' \"$@\" -o -f '" + dir.resolve("pom.xml") + "' -Dmaven.repo.local='" + dir.resolve("repo") + "'\n");
    Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwx------"));

    ChildProcess demo = processes.start(List.of("env", "PATH=" + bin + ":" + System.getenv("PATH"),
        "bash",
        REPOSITORY.resolve("scripts/demo.sh").toString(), "--bytes", "64K"));
    assertEquals(0, demo.awaitExit(), demo::toString);
    assertTrue(demo.outLines().get(0).startsWith("secio demo: "), demo::toString);
    assertTrue(Stream.concat(demo.outLines().stream(), demo.errLines().stream())
        .noneMatch(line -> line.indexOf('\u001b') >= 0), () -> demo.toString().replace("\u001b", "<ESC>"));
  }
}
