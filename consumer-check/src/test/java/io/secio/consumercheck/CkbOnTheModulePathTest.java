package io.secio.consumercheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's module of CKB peers (src/ckb-user: {@code requires io.secio.ckb} and, on Netty 4.2,
 * {@code requires io.netty.codec.compression}) compiled here and run in a new JVM with everything on
 * the module path and no option: a listener and a dialer identify (the listener announcing the
 * version of secio-ckb's jar), the dialer gets the listener's node and sends 4 KiB on a
 * compress-codec protocol, which goes as a snappy block through Netty's snappy and arrives whole.
 *
 * <p>secio-ckb requires Netty's snappy module only statically: on Netty 4.1 the class is in {@code
 * io.netty.codec}, which it reads anyway, and no {@code io.netty.codec.compression} exists, so a
 * plain {@code requires} would stop a 4.1 user's module from starting. On 4.2 the module is resolved
 * by the user's own {@code requires} (or {@code --add-modules}); without either, the first {@code
 * Ckb} handler fails and names both fixes, as the second test shows. The third runs the module
 * without that {@code requires} on Netty 4.1's jars (automatic modules), where it needs nothing.
 */
class CkbOnTheModulePathTest {
  private static final Path USER_SOURCES =
      Path.of(System.getProperty("basedir", "."), "src", "ckb-user").normalize();
  private static final String MAIN = "com.example.ckb/com.example.ckb.CkbPeers";
  private static final String COMPRESSION = "  requires io.netty.codec.compression;\n";
  /** The listener's client version, from secio-ckb's jar manifest: never "(development build)" from a jar. */
  private static final String VERSION = "client version secio-java N";

  @TempDir
  Path work;

  @Test
  void aUserModuleRequiringNettysSnappyRunsCkbWithoutOptions() throws Exception {
    String modulePath = compile(Files.readString(USER_SOURCES.resolve("module-info.java")));
    List<String> report = ModulePathJvm.run(modulePath, MAIN, List.of());
    assertEquals(List.of("identified /ckb_testnet/10639e08", VERSION, "nodes 1", "alert 4096 bytes",
        "snappy in io.netty.codec.compression"), withoutItsNumber(report), String.join("\n", report));
  }

  @Test
  void withoutNettysSnappyTheFirstHandlerNamesTheFix() throws Exception {
    String moduleInfo = Files.readString(USER_SOURCES.resolve("module-info.java"));
    assertTrue(moduleInfo.contains(COMPRESSION), moduleInfo);
    String modulePath = compile(moduleInfo.replace(COMPRESSION, ""));
    ModulePathJvm.Exit exit = ModulePathJvm.exit(modulePath, MAIN, List.of());
    assertNotEquals(0, exit.status(), exit.output());
    assertTrue(exit.output().contains("requires io.netty.codec.compression")
        && exit.output().contains("--add-modules io.netty.codec.compression"), exit.output());
  }

  @Test
  void onNetty41TheSameModuleWithoutThatRequiresFindsSnappyInTheCodec() throws Exception {
    String moduleInfo = Files.readString(USER_SOURCES.resolve("module-info.java")).replace(COMPRESSION, "");
    String modulePath = compile(moduleInfo);
    List<String> entries = new ArrayList<>();
    for (String entry : modulePath.split(File.pathSeparator)) {
      if (!Path.of(entry).getFileName().toString().startsWith("netty-")) {
        entries.add(entry);
      }
    }
    Path netty41 = Path.of(System.getProperty("netty41.dir"));
    try (Stream<Path> jars = Files.list(netty41)) {
      jars.map(Path::toString).sorted().forEach(entries::add);
    }
    List<String> report = ModulePathJvm.run(String.join(File.pathSeparator, entries), MAIN, List.of());
    assertEquals(List.of("identified /ckb_testnet/10639e08", VERSION, "nodes 1", "alert 4096 bytes",
        "snappy in io.netty.codec"), withoutItsNumber(report), String.join("\n", report));
  }

  /** The report with the client version's number replaced by {@code N}: the build's version. */
  private static List<String> withoutItsNumber(List<String> report) {
    return report.stream().map(line -> line.replaceFirst("^(client version secio-java )\\d+\\.\\d+\\.\\d+\\S*$", "$1N"))
        .toList();
  }

  /** The user module with {@code moduleInfo}, compiled; the module path to run it with. */
  private String compile(String moduleInfo) throws IOException {
    Path sources = work.resolve("src");
    try (Stream<Path> files = Files.walk(USER_SOURCES)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        Path copy = sources.resolve(USER_SOURCES.relativize(f).toString());
        Files.createDirectories(copy.getParent());
        Files.copy(f, copy);
      }
    }
    Files.writeString(sources.resolve("module-info.java"), moduleInfo);
    Path classes = work.resolve("com.example.ckb");
    List<Path> units;
    try (Stream<Path> files = Files.walk(sources)) {
      units = files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
    }
    ModulePathJvm.compile(units, classes, ModulePathJvm.modulePath());
    return classes + File.pathSeparator + ModulePathJvm.modulePath();
  }
}
