package io.secio.consumercheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No package of this project's main sources depends on itself through others: in the graph of
 * {@code import} lines (static ones too) between the packages of every module's {@code
 * src/main/java}, there is no cycle of any length. A package that imports another one says it sits
 * above it; a cycle means neither can be read, tested or moved without the other. Read from the
 * sources, so every module counts, those consumer-check does not depend on as well.
 */
class PackageCyclesTest {
  private static final Path ROOT = Path.of(System.getProperty("basedir", "."), "..").normalize();
  private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
  private static final Pattern IMPORT =
      Pattern.compile("^import\\s+(?:static\\s+)?([\\w.]+?)(\\.\\*)?\\s*;", Pattern.MULTILINE);

  @Test
  void noPackageOfAnyModuleDependsOnItself() {
    Graph graph = Graph.of(mainSources(ROOT));
    assertTrue(graph.modules.size() >= 8 && graph.files >= 200,
        "read " + graph.files + " files of " + graph.modules + ": is " + ROOT + " the repository?");
    List<String> cycles = graph.cycles();
    assertTrue(cycles.isEmpty(), "package cycles:\n" + String.join("\n", cycles));
  }

  /** The check itself: a cycle through three packages of two modules is found and named. */
  @Test
  void aCycleOfThreePackagesIsFoundAndNamed(@TempDir Path repo) throws IOException {
    write(repo, "a/src/main/java/x/top/Top.java", "package x.top;\nimport x.mid.Mid;\nclass Top {}\n");
    write(repo, "a/src/main/java/x/mid/Mid.java",
        "package x.mid;\nimport static x.leaf.Leaf.VALUE;\nclass Mid {}\n");
    write(repo, "b/src/main/java/x/leaf/Leaf.java",
        "package x.leaf;\nimport x.top.*;\nimport java.util.List;\nclass Leaf {}\n");
    write(repo, "b/src/main/java/x/alone/Alone.java", "package x.alone;\nimport x.top.Top;\nclass Alone {}\n");

    List<String> cycles = Graph.of(mainSources(repo)).cycles();

    assertEquals(1, cycles.size(), String.join("\n", cycles));
    String cycle = cycles.get(0);
    assertTrue(cycle.startsWith("x.leaf -> x.top -> x.mid -> x.leaf"), cycle);
    assertTrue(cycle.contains("b/src/main/java/x/leaf/Leaf.java imports x.top.*")
        && cycle.contains("a/src/main/java/x/top/Top.java imports x.mid.Mid")
        && cycle.contains("a/src/main/java/x/mid/Mid.java imports x.leaf.Leaf.VALUE"), cycle);
  }

  private static void write(Path repo, String file, String text) throws IOException {
    Path path = repo.resolve(file);
    Files.createDirectories(path.getParent());
    Files.writeString(path, text);
  }

  /** Every {@code .java} file under {@code MODULE/src/main/java}, for each module folder of {@code repo}. */
  private static List<Path> mainSources(Path repo) {
    try (Stream<Path> modules = Files.list(repo)) {
      List<Path> sources = new ArrayList<>();
      for (Path main : modules.map(m -> m.resolve("src/main/java")).filter(Files::isDirectory).toList()) {
        try (Stream<Path> files = Files.walk(main)) {
          files.filter(f -> f.toString().endsWith(".java")).sorted().forEach(sources::add);
        }
      }
      return sources;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Packages and the imports between them, each edge with the lines that make it. */
  private static final class Graph {
    final Set<String> modules = new TreeSet<>();
    int files;
    /** Top-level type (package.Name) to its package. */
    final Map<String, String> types = new HashMap<>();
    final Set<String> packages = new TreeSet<>();
    /** From a package to the packages it imports, each with why (file imports name). */
    final Map<String, Map<String, List<String>>> edges = new TreeMap<>();

    static Graph of(List<Path> sources) {
      Graph g = new Graph();
      Map<Path, String> text = new HashMap<>();
      Map<Path, String> packageOf = new HashMap<>();
      for (Path file : sources) {
        String source = read(file);
        Matcher p = PACKAGE.matcher(source);
        if (!p.find()) {
          continue; // module-info.java
        }
        String pkg = p.group(1);
        text.put(file, source);
        packageOf.put(file, pkg);
        g.packages.add(pkg);
        String name = file.getFileName().toString().replaceFirst("\\.java$", "");
        g.types.put(pkg + "." + name, pkg);
        g.modules.add(file.getParent().toString().replaceFirst("/src/main/java/.*$", ""));
        g.files++;
      }
      for (Path file : sources) {
        if (!text.containsKey(file)) {
          continue;
        }
        String from = packageOf.get(file);
        Matcher m = IMPORT.matcher(text.get(file));
        while (m.find()) {
          String to = g.packageOf(m.group(1), m.group(2) != null);
          if (to != null && !to.equals(from)) {
            g.edges.computeIfAbsent(from, k -> new TreeMap<>()).computeIfAbsent(to, k -> new ArrayList<>())
                .add(relative(file) + " imports " + m.group(1) + (m.group(2) != null ? ".*" : ""));
          }
        }
      }
      return g;
    }

    /**
     * The package an imported name is in: the longest prefix that is one of our types (a nested type
     * or a static member follows it), or for a {@code .*} import the name itself if it is one of our
     * packages; null for anything else (the JDK, Netty, generated code's libraries).
     */
    String packageOf(String name, boolean onDemand) {
      if (onDemand && packages.contains(name)) {
        return name;
      }
      for (String prefix = name; prefix.contains(".");
          prefix = prefix.substring(0, prefix.lastIndexOf('.'))) {
        String pkg = types.get(prefix);
        if (pkg != null) {
          return pkg;
        }
      }
      return null;
    }

    /** One line per strongly connected set of packages: a cycle through them, then each edge's imports. */
    List<String> cycles() {
      List<String> found = new ArrayList<>();
      for (Set<String> component : components()) {
        List<String> cycle = cycleWithin(component);
        StringBuilder line = new StringBuilder(String.join(" -> ", cycle));
        for (int i = 0; i + 1 < cycle.size(); i++) {
          line.append("\n    ").append(cycle.get(i)).append(" -> ").append(cycle.get(i + 1)).append(": ")
              .append(String.join("; ", edges.get(cycle.get(i)).get(cycle.get(i + 1))));
        }
        if (component.size() > cycle.size() - 1) {
          line.append("\n    (entangled with it: ").append(component).append(')');
        }
        found.add(line.toString());
      }
      return found;
    }

    /** Tarjan's strongly connected components of more than one package. */
    private List<Set<String>> components() {
      Map<String, Integer> index = new HashMap<>();
      Map<String, Integer> low = new HashMap<>();
      Deque<String> stack = new ArrayDeque<>();
      Set<String> onStack = new TreeSet<>();
      List<Set<String>> result = new ArrayList<>();
      for (String pkg : packages) {
        if (!index.containsKey(pkg)) {
          connect(pkg, index, low, stack, onStack, result);
        }
      }
      return result;
    }

    private void connect(String v, Map<String, Integer> index, Map<String, Integer> low,
        Deque<String> stack, Set<String> onStack, List<Set<String>> result) {
      index.put(v, index.size());
      low.put(v, index.get(v));
      stack.push(v);
      onStack.add(v);
      for (String w : edges.getOrDefault(v, Map.of()).keySet()) {
        if (!index.containsKey(w)) {
          connect(w, index, low, stack, onStack, result);
          low.put(v, Math.min(low.get(v), low.get(w)));
        } else if (onStack.contains(w)) {
          low.put(v, Math.min(low.get(v), index.get(w)));
        }
      }
      if (low.get(v).equals(index.get(v))) {
        Set<String> component = new TreeSet<>();
        String w;
        do {
          w = stack.pop();
          onStack.remove(w);
          component.add(w);
        } while (!w.equals(v));
        if (component.size() > 1) {
          result.add(component);
        }
      }
    }

    /** The shortest cycle from the component's first package back to it, staying inside. */
    private List<String> cycleWithin(Set<String> component) {
      String start = component.iterator().next();
      Map<String, String> cameFrom = new HashMap<>();
      Deque<String> queue = new ArrayDeque<>(List.of(start));
      while (!queue.isEmpty()) {
        String v = queue.poll();
        for (String w : edges.getOrDefault(v, Map.of()).keySet()) {
          if (w.equals(start)) {
            // The search began at start, which has no predecessor: the chain ends there.
            List<String> cycle = new ArrayList<>();
            for (String at = v; at != null; at = cameFrom.get(at)) {
              cycle.add(0, at);
            }
            cycle.add(start);
            return cycle;
          }
          if (component.contains(w) && !cameFrom.containsKey(w) && !w.equals(start)) {
            cameFrom.put(w, v);
            queue.add(w);
          }
        }
      }
      throw new AssertionError("no cycle in a strongly connected component " + component);
    }

    private static String read(Path file) {
      try {
        return Files.readString(file);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private static String relative(Path file) {
      Path normal = file.toAbsolutePath().normalize();
      for (Path p = normal; p.getNameCount() > 4; p = p.getParent()) {
        if (p.endsWith(Path.of("src", "main", "java"))) {
          Path repo = p.getParent().getParent().getParent().getParent();
          return repo.relativize(normal).toString();
        }
      }
      return normal.toString();
    }
  }
}
