package io.secio.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The README's Java snippets are real code: each {@code ```java} block follows a line {@code <!--
 * from PATH -->} and must stand, line for line (indentation aside), in that source file, which
 * compiles with this module and is run by {@link ExamplesTest}. So a snippet cannot drift from the
 * API it shows.
 */
class ReadmeSnippetsTest {
  private static final Path ROOT = Path.of(System.getProperty("basedir", "."), "..").normalize();
  private static final Pattern SNIPPET =
      Pattern.compile("<!-- from (\\S+) -->\\s*\\n```java\\n(.*?)\\n```", Pattern.DOTALL);

  record Snippet(String source, List<String> lines) {}

  static List<Snippet> snippets() throws IOException {
    String readme = Files.readString(ROOT.resolve("README.md"));
    List<Snippet> found = new ArrayList<>();
    Matcher m = SNIPPET.matcher(readme);
    while (m.find()) {
      found.add(new Snippet(m.group(1), stripped(m.group(2).lines())));
    }
    return found;
  }

  private static List<String> stripped(Stream<String> lines) {
    return lines.map(String::strip).filter(l -> !l.isEmpty()).collect(Collectors.toList());
  }

  @Test
  void everyJavaBlockNamesItsSource() throws IOException {
    String readme = Files.readString(ROOT.resolve("README.md"));
    long javaBlocks = readme.lines().filter("```java"::equals).count();
    assertTrue(javaBlocks > 0, "the README shows Java");
    assertEquals(javaBlocks, snippets().size(), "every ```java block is preceded by <!-- from PATH -->");
  }

  @TestFactory
  Stream<DynamicTest> everySnippetStandsInItsSource() throws IOException {
    return snippets().stream().map(s -> DynamicTest.dynamicTest(s.source(), () -> {
      List<String> source = stripped(Files.readString(ROOT.resolve(s.source())).lines());
      assertFalse(s.lines().isEmpty(), "empty snippet");
      assertTrue(Collections.indexOfSubList(source, s.lines()) >= 0,
          "the README's snippet from " + s.source() + " is not in it, line for line:\n"
              + String.join("\n", s.lines()));
    }));
  }
}
