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
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.tools.DocumentationTool;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import jdk.javadoc.doclet.Doclet;
import jdk.javadoc.doclet.DocletEnvironment;
import jdk.javadoc.doclet.Reporter;
import org.junit.jupiter.api.Test;

/**
 * Every member a user can reach has a description: each public or protected type, constructor,
 * method, field and enum constant in an exported package of a published module (the unqualified
 * {@code exports} of each module-info.java) carries a doc comment. The javadoc build's doclint does
 * not check this (its "missing" group also asks for {@code @param} and {@code @return} everywhere),
 * so a small doclet does. Members that inherit their comment ({@code @Override}) and those the
 * compiler writes (an enum's {@code values}/{@code valueOf}, a record's accessors) are exempt; a
 * public class's implicit constructor is not, as javadoc would show it bare.
 */
class ApiDocsTest {
  private static final Path ROOT = Path.of(System.getProperty("basedir", "."), "..").normalize();
  private static final Pattern EXPORT = Pattern.compile("^\\s*exports\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);

  /** Found by the doclet; one run per JVM is enough. */
  static final List<String> UNDOCUMENTED = new ArrayList<>();
  static final Set<String> CHECKED_TYPES = new TreeSet<>();

  @Test
  void everyExportedMemberIsDocumented() throws IOException {
    List<Path> modules = publishedModules();
    assertFalse(modules.isEmpty(), "no module-info.java under " + ROOT);

    List<Path> sources = new ArrayList<>();
    for (Path module : modules) {
      Path java = module.resolve("src/main/java");
      for (String pkg : exportedPackages(java.resolve("module-info.java"))) {
        Path dir = java.resolve(pkg.replace('.', '/'));
        try (Stream<Path> files = Files.list(dir)) {
          files.filter(f -> f.toString().endsWith(".java")).forEach(sources::add);
        }
      }
    }
    DocumentationTool javadoc = ToolProvider.getSystemDocumentationTool();
    StringWriter out = new StringWriter();
    try (StandardJavaFileManager files = javadoc.getStandardFileManager(null, Locale.ROOT, null)) {
      Iterable<? extends JavaFileObject> units = files.getJavaFileObjectsFromPaths(sources);
      List<String> options = List.of(
          "-quiet",
          "-classpath", compiledDependencies());
      UNDOCUMENTED.clear();
      CHECKED_TYPES.clear();
      boolean ran = javadoc.getTask(out, files, null, MissingDocs.class, options, units).call();
      assertTrue(ran, "javadoc failed:\n" + out);
    }

    assertTrue(CHECKED_TYPES.contains("io.secio.netty.Secio"), "the doclet saw " + CHECKED_TYPES);
    assertEquals("", String.join("\n", UNDOCUMENTED),
        UNDOCUMENTED.size() + " exported members without a description");
  }

  /**
   * What the sources refer to, compiled: this module's test class path holds every published module
   * (see its pom), and the epoll classes kept off it for WithoutOptionalDependenciesTest.
   */
  private static String compiledDependencies() throws IOException {
    List<String> entries = new ArrayList<>(List.of(System.getProperty("java.class.path")));
    try (Stream<Path> jars = Files.list(Path.of(System.getProperty("epoll.dir")))) {
      jars.map(Path::toString).forEach(entries::add);
    }
    return String.join(File.pathSeparator, entries);
  }

  /** Every module with a module-info.java but this test bed. */
  private static List<Path> publishedModules() throws IOException {
    try (Stream<Path> dirs = Files.list(ROOT)) {
      return dirs.filter(d -> Files.isRegularFile(d.resolve("src/main/java/module-info.java")))
          .filter(d -> !d.getFileName().toString().equals("consumer-check"))
          .sorted()
          .collect(Collectors.toList());
    }
  }

  private static List<String> exportedPackages(Path moduleInfo) throws IOException {
    List<String> packages = new ArrayList<>();
    Matcher m = EXPORT.matcher(Files.readString(moduleInfo));
    while (m.find()) {
      packages.add(m.group(1));
    }
    return packages;
  }

  /** Reports, into {@link #UNDOCUMENTED}, each reachable member without a doc comment. */
  public static final class MissingDocs implements Doclet {
    private Elements elements;

    @Override
    public void init(Locale locale, Reporter reporter) {}

    @Override
    public String getName() {
      return "MissingDocs";
    }

    @Override
    public Set<? extends Option> getSupportedOptions() {
      return Set.of();
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
      return SourceVersion.latest();
    }

    @Override
    public boolean run(DocletEnvironment environment) {
      elements = environment.getElementUtils();
      for (TypeElement type : ElementFilter.typesIn(environment.getIncludedElements())) {
        if (reachable(type) && isTopLevelOrReachable(type)) {
          CHECKED_TYPES.add(type.getQualifiedName().toString());
          check(type);
          for (Element member : type.getEnclosedElements()) {
            if (member.getKind().isClass() || member.getKind().isInterface()) {
              continue; // nested types are included elements of their own
            }
            if (reachable(member) && !exempt(type, member)) {
              check(member);
            }
          }
        }
      }
      return true;
    }

    private boolean isTopLevelOrReachable(TypeElement type) {
      Element outer = type.getEnclosingElement();
      while (outer instanceof TypeElement) {
        if (!reachable(outer)) {
          return false;
        }
        outer = outer.getEnclosingElement();
      }
      return true;
    }

    private boolean exempt(TypeElement type, Element member) {
      if (member.getKind() == ElementKind.METHOD) {
        boolean override = member.getAnnotationMirrors().stream()
            .anyMatch(a -> a.getAnnotationType().toString().equals("java.lang.Override"));
        if (override) {
          return true;
        }
      }
      if (type.getKind() == ElementKind.ENUM && member instanceof ExecutableElement) {
        // javadoc writes the descriptions of an enum's implicit values() and valueOf(String).
        String name = member.getSimpleName().toString();
        int parameters = ((ExecutableElement) member).getParameters().size();
        if ((name.equals("values") && parameters == 0) || (name.equals("valueOf") && parameters == 1)) {
          return true;
        }
      }
      if (elements.getOrigin(member) == Elements.Origin.MANDATED) {
        // An enum's values/valueOf, a record's accessors and canonical constructor are the
        // compiler's; a class's implicit constructor is a member a user sees.
        boolean implicitClassConstructor = member.getKind() == ElementKind.CONSTRUCTOR
            && type.getKind() == ElementKind.CLASS;
        return !implicitClassConstructor;
      }
      if (member.getKind() == ElementKind.RECORD_COMPONENT) {
        return true; // described by the record's @param
      }
      if (type.getKind() == ElementKind.RECORD && member instanceof ExecutableElement
          && Set.of("equals", "hashCode", "toString").contains(member.getSimpleName().toString())) {
        return true; // a record's implicit equals, hashCode and toString are the Record contract's
      }
      if (type.getKind() == ElementKind.RECORD && member instanceof ExecutableElement) {
        // Accessors written out for a component documented by the record's @param.
        ExecutableElement method = (ExecutableElement) member;
        boolean component = type.getRecordComponents().stream()
            .anyMatch(c -> c.getSimpleName().equals(method.getSimpleName()));
        return component && method.getParameters().isEmpty();
      }
      return false;
    }

    private void check(Element element) {
      String comment = elements.getDocComment(element);
      if (comment == null || comment.isBlank()) {
        UNDOCUMENTED.add(describe(element));
      }
    }

    private static boolean reachable(Element element) {
      Set<Modifier> modifiers = element.getModifiers();
      if (modifiers.contains(Modifier.PUBLIC)) {
        return true;
      }
      // protected members of a class a user may extend; interface members are public implicitly.
      Element owner = element.getEnclosingElement();
      boolean inInterface = owner != null && owner.getKind().isInterface();
      return modifiers.contains(Modifier.PROTECTED) || (inInterface && !modifiers.contains(Modifier.PRIVATE));
    }

    private static String describe(Element element) {
      if (element instanceof TypeElement) {
        return ((TypeElement) element).getQualifiedName().toString();
      }
      Element owner = element.getEnclosingElement();
      String name = element.getKind() == ElementKind.CONSTRUCTOR ? "<init>" : element.getSimpleName().toString();
      if (element instanceof ExecutableElement) {
        name += ((ExecutableElement) element).getParameters().stream()
            .map(p -> p.asType().toString()).collect(Collectors.joining(", ", "(", ")"));
      }
      return ((TypeElement) owner).getQualifiedName() + "#" + name;
    }
  }
}
