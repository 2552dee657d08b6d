package io.secio.consumercheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the README and the examples tell a user to call compiles from a named module: the examples
 * (every README snippet stands in one of them, ReadmeSnippetsTest checks that) are compiled here as
 * a module that requires the published secio modules and nothing else of this project, with those
 * modules on the module path. An example that reached a package a module does not export would fail
 * with "package ... is not visible". Not compiled: the CLI (picocli, a tool rather than API use) and
 * MicrometerObserver (Micrometer is the example's own dependency, not one of ours).
 */
class ExamplesAsNamedModuleTest {
  private static final Path ROOT = Path.of(System.getProperty("basedir", "."), "..").normalize();
  private static final Path EXAMPLES = ROOT.resolve("examples/src/main/java/io/secio/examples");
  private static final Set<String> NOT_COMPILED = Set.of("MicrometerObserver.java");
  /** `Type.member(` in the README's prose, the entry points it names outside its snippets. */
  private static final Pattern README_CALL = Pattern.compile("`([A-Z]\\w*(?:\\.[A-Z]\\w*)*)\\.(\\w+)\\(");

  @Test
  void theExamplesCompileAsANamedModule(@TempDir Path work) throws IOException {
    List<Path> sources = exampleSources();
    assertTrue(sources.size() >= 8, "examples found: " + sources);

    Set<String> secioModules = secioModulesOnThePath();
    assertTrue(secioModules.contains("io.secio.netty"), "module path holds " + secioModules);
    Path moduleInfo = work.resolve("src/module-info.java");
    Files.createDirectories(moduleInfo.getParent());
    Files.writeString(moduleInfo, "module io.secio.examplescheck {\n"
        + secioModules.stream().map(m -> "  requires " + m + ";\n").collect(Collectors.joining())
        // Netty's codec-extra modules the examples use beside secio (line and string codecs).
        + "  requires io.netty.handler;\n"
        + "}\n");
    List<Path> units = new ArrayList<>(sources);
    units.add(moduleInfo);

    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    StringWriter out = new StringWriter();
    try (StandardJavaFileManager files = javac.getStandardFileManager(null, Locale.ROOT, null)) {
      Iterable<? extends JavaFileObject> compilationUnits = files.getJavaFileObjectsFromPaths(units);
      List<String> options = List.of("--release", "17", "-proc:none", "-Xlint:-options",
          "-d", work.resolve("classes").toString(),
          "--module-path", ModulePathJvm.modulePath());
      boolean compiled = javac.getTask(out, files, null, options, null, compilationUnits).call();
      assertTrue(compiled, "the examples do not compile as a named module:\n" + out);
    }
  }

  /** Each `Type.member(` the README names in prose appears in an example, so the test above covers it. */
  @Test
  void everyCallTheReadmeNamesIsInAnExample() throws IOException {
    String readme = Files.readString(ROOT.resolve("README.md"));
    StringBuilder examples = new StringBuilder();
    for (Path source : exampleSources()) {
      examples.append(Files.readString(source));
    }
    Set<String> missing = new TreeSet<>();
    Matcher m = README_CALL.matcher(readme);
    int found = 0;
    while (m.find()) {
      found++;
      String[] type = m.group(1).split("\\.");
      // A static call reads Type.member(; an instance or builder method is called on a value.
      String owner = type[type.length - 1].equals("Builder") ? type[0] : type[type.length - 1];
      String source = examples.toString();
      if (!(source.contains(owner) && source.contains("." + m.group(2) + "("))) {
        missing.add(m.group(1) + "." + m.group(2));
      }
    }
    assertTrue(found > 3, "the README names " + found + " calls");
    assertEquals(Set.of(), missing, "named in the README, used in no example");
  }

  private static List<Path> exampleSources() throws IOException {
    try (Stream<Path> files = Files.list(EXAMPLES)) {
      return files.filter(f -> f.toString().endsWith(".java"))
          .filter(f -> !NOT_COMPILED.contains(f.getFileName().toString()))
          .sorted()
          .collect(Collectors.toList());
    }
  }

  /** The io.secio modules a user can require (every one with an unqualified export). */
  private static Set<String> secioModulesOnThePath() {
    Path[] entries = Stream.of(ModulePathJvm.modulePath().split(File.pathSeparator))
        .map(Path::of).toArray(Path[]::new);
    Set<String> names = new TreeSet<>();
    for (ModuleReference module : ModuleFinder.of(entries).findAll()) {
      String name = module.descriptor().name();
      boolean api = module.descriptor().exports().stream().anyMatch(e -> !e.isQualified());
      if (name.startsWith("io.secio.") && api && !name.equals("io.secio.consumercheck")) {
        names.add(name);
      }
    }
    assertFalse(names.isEmpty());
    return names;
  }
}
