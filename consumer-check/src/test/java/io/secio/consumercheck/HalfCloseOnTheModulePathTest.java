package io.secio.consumercheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's half-closing secio server run as users run it: the module {@code com.example.echo}
 * (src/user: {@code requires io.secio.netty} and Netty's epoll module, nothing of this project's
 * tests) is compiled here and started in a new JVM with everything on the module path, native epoll
 * added as a module, no {@code --add-opens}, and no SLF4J binding, so nothing secio logs is seen.
 * Every round of both of its applications (an echo that pauses for backpressure, a reply to the end
 * of a request; see its {@code HalfClose}) must get every byte back before the server's FIN.
 *
 * <p>On Netty 4.2's epoll a half-closed stream lost its end when secio could not guard the channel's
 * epoll registration (secio-netty's EpollInterestGuard): before secio moved such a channel to a
 * guarded view of its loop, it reached into a private Netty field, which the module path refuses, and
 * said so only in a log nobody saw here. Then 0 to 6 of 20 echo rounds and 5 to 10 of 10 reply
 * rounds lost their end on a group built by Netty's own constructor (the echo alone is not a
 * reliable witness: it loses only when the FIN finds the server paused). Rounds: {@code
 * -Dsecio.modulepath.halfclose.echoes} (default 20), {@code -Dsecio.modulepath.halfclose.replies}
 * (default 10).
 */
class HalfCloseOnTheModulePathTest {
  private static final int ECHOES = Integer.getInteger("secio.modulepath.halfclose.echoes", 20);
  private static final int REPLIES = Integer.getInteger("secio.modulepath.halfclose.replies", 10);
  private static final Path USER_SOURCES =
      Path.of(System.getProperty("basedir", "."), "src", "user").normalize();
  private static final String MAIN = "com.example.echo/com.example.echo.HalfClose";
  private static final List<String> EPOLL_MODULE = List.of(
      "--add-modules", "io.netty.transport.epoll.linux.x86_64", "--enable-native-access=io.netty.common");

  @TempDir
  static Path work;
  private static String modulePath;

  @BeforeAll
  static void compileTheUserModule() throws IOException {
    String secioAndNetty = secioAndNettyWithoutABinding();
    Path classes = work.resolve("com.example.echo");
    List<Path> sources;
    try (Stream<Path> files = Files.walk(USER_SOURCES)) {
      sources = files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    StringWriter out = new StringWriter();
    try (StandardJavaFileManager files = javac.getStandardFileManager(null, Locale.ROOT, null)) {
      List<String> options = List.of("--release", "17", "-proc:none", "-Xlint:all", "-Werror",
          "-d", classes.toString(), "--module-path", secioAndNetty);
      boolean compiled = javac.getTask(out, files, null, options, null,
          files.getJavaFileObjectsFromPaths(sources)).call();
      assertTrue(compiled, "the user module does not compile:\n" + out);
    }
    modulePath = classes + File.pathSeparator + secioAndNetty;
  }

  @Test
  void onAGroupBuiltByNettyNoRoundLosesItsEnd() throws Exception {
    List<String> report = run("netty", ECHOES, REPLIES);
    assertEquals(List.of("echo: lost 0 of " + ECHOES + " rounds", "reply: lost 0 of " + REPLIES
        + " rounds"), results(report), String.join("\n", report));
    // The run had no binding: what SLF4J says then, and nothing from secio.
    assertTrue(report.stream().anyMatch(line -> line.contains("No SLF4J providers were found")),
        String.join("\n", report));
  }

  @Test
  void onAGroupFromTransportsNoRoundLosesItsEnd() throws Exception {
    List<String> report = run("transports", 5, 5);
    assertEquals(List.of("echo: lost 0 of 5 rounds", "reply: lost 0 of 5 rounds"), results(report),
        String.join("\n", report));
  }

  private static List<String> run(String group, int echoes, int replies)
      throws IOException, InterruptedException {
    return ModulePathJvm.run(modulePath, MAIN, EPOLL_MODULE, group, Integer.toString(echoes),
        Integer.toString(replies));
  }

  private static List<String> results(List<String> report) {
    return report.stream().filter(line -> line.matches("(echo|reply): lost .*")).toList();
  }

  /**
   * The published modules and their dependencies from surefire's class path, with the epoll jars the
   * build copied beside it, and without slf4j-simple: on the module path a provider there would be
   * bound as a service.
   */
  private static String secioAndNettyWithoutABinding() throws IOException {
    List<String> entries = Arrays.stream(ModulePathJvm.modulePath().split(File.pathSeparator))
        .filter(entry -> !Path.of(entry).getFileName().toString().startsWith("slf4j-simple"))
        .collect(Collectors.toCollection(ArrayList::new));
    Path epoll = Path.of(System.getProperty("epoll.dir"));
    try (Stream<Path> jars = Files.list(epoll)) {
      List<String> epollJars = jars.map(Path::toString).sorted().toList();
      assertEquals(2, epollJars.size(), "the epoll classes and native jars in " + epoll);
      entries.addAll(epollJars);
    }
    assertFalse(entries.isEmpty());
    return String.join(File.pathSeparator, entries);
  }
}
