package io.secio.consumercheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@link HalfCloseEcho} on native epoll with the server and client as named modules: no round loses
 * the tail of the echo, whether the event loop group comes from {@code Transports.EPOLL} (no
 * reflection needed) or from Netty's own constructor with the {@code --add-opens} that secio's WARN
 * asks for; without it, that WARN comes once per JVM, however many connections. Rounds: {@code
 * -Dsecio.modulepath.halfclose.rounds} (default 10; issue 21 measured 4 to 11 of 20 lost before).
 */
class EpollModulePathTest {
  private static final int ROUNDS = Integer.getInteger("secio.modulepath.halfclose.rounds", 10);
  private static final String WARNING = "epoll interest guard not installed";
  private static final List<String> EPOLL_MODULES = List.of("--add-modules",
      "io.netty.transport.classes.epoll,io.netty.transport.epoll.linux.x86_64",
      "--enable-native-access=io.netty.common");
  private static final String OPENS =
      "io.netty.transport.classes.epoll/io.netty.channel.epoll=io.secio.netty";

  @Test
  void aGroupFromTransportsLosesNoTail() throws Exception {
    List<String> report = halfCloseEcho(ROUNDS, "transports", List.of());
    assertEquals("lost 0 of " + ROUNDS + " rounds on MultiThreadIoEventLoopGroup", last(report),
        String.join("\n", report));
    assertFalse(report.stream().anyMatch(line -> line.contains(WARNING)), String.join("\n", report));
  }

  @Test
  void aGroupMadeByNettyIsGuardedWithTheOpensTheWarningNames() throws Exception {
    List<String> report = halfCloseEcho(ROUNDS, "netty", List.of("--add-opens", OPENS));
    assertEquals("lost 0 of " + ROUNDS + " rounds on MultiThreadIoEventLoopGroup", last(report),
        String.join("\n", report));
    assertFalse(report.stream().anyMatch(line -> line.contains(WARNING)), String.join("\n", report));
  }

  @Test
  void aGroupMadeByNettyWithoutTheOpensWarnsOnce() throws Exception {
    List<String> report = halfCloseEcho(3, "netty", List.of());
    List<String> warnings = report.stream().filter(line -> line.contains(WARNING)).toList();
    assertEquals(1, warnings.size(), String.join("\n", report));
    assertTrue(warnings.get(0).contains("WARN") && warnings.get(0).contains("--add-opens " + OPENS)
        && warnings.get(0).contains("Transports.EPOLL.newEventLoopGroup"), warnings.get(0));
    assertTrue(last(report).matches("lost \\d of 3 rounds on MultiThreadIoEventLoopGroup"),
        String.join("\n", report));
  }

  private static List<String> halfCloseEcho(int rounds, String group, List<String> options)
      throws IOException, InterruptedException {
    List<String> all = new ArrayList<>(EPOLL_MODULES);
    all.addAll(options);
    return ModulePathJvm.run(modulePathWithEpoll(), HalfCloseEcho.class, all,
        Integer.toString(rounds), group);
  }

  /** The module path plus the epoll jars the build copied beside it (not on the class path). */
  private static String modulePathWithEpoll() throws IOException {
    Path dir = Path.of(System.getProperty("epoll.dir"));
    try (Stream<Path> jars = Files.list(dir)) {
      List<String> entries = new ArrayList<>(List.of(ModulePathJvm.modulePath()));
      jars.map(Path::toString).sorted().forEach(entries::add);
      assertEquals(3, entries.size(), "two epoll jars in " + dir);
      return String.join(File.pathSeparator, entries);
    }
  }

  private static String last(List<String> lines) {
    return lines.get(lines.size() - 1);
  }
}
