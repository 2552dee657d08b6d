package io.secio.consumercheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every class a doc names exists: in the Markdown a newcomer reads (the READMEs and {@code docs/}),
 * each name in backticks that looks like a Java type (two or more capitalised words run together,
 * {@code SecioConfig.Builder}; or one capitalised word that opens the backticks, {@code Frames},
 * {@code Secio.client(config)}) is a type declared somewhere in
 * this repository, or one of the JDK's or a dependency's that this test can load, or one of the few
 * outside names listed in {@link #OUTSIDE}; and each qualified name of ours ({@code
 * io.secio.frame.Frames}, {@code io.secio.crypto}) is a type or package that exists under that very
 * name. Fenced code blocks are left out: the README's snippets are compiled (ReadmeSnippetsTest,
 * readme-consumer.sh) and the rest are shell commands.
 *
 * <p>Left out on purpose, because they record the past under the names it had: {@code
 * CHANGELOG.md} (what each version changed, including classes since renamed or removed), {@code
 * benchmarks/results/} (every run as it was made), and the vectors' READMEs (byte-identical copies
 * of the shared vectors, which are never edited). {@code mvn -pl consumer-check test
 * -Dtest=DocNamesTest} runs it alone.
 */
class DocNamesTest {
  private static final Path ROOT = Path.of(System.getProperty("basedir", "."), "..").normalize();
  private static final Set<String> HISTORY = Set.of("CHANGELOG.md");
  private static final Set<String> HISTORY_FOLDERS = Set.of("benchmarks/results", "vectors");
  private static final Set<String> NOT_SOURCES = Set.of("target", "node_modules", ".git");

  private static final Pattern FENCE = Pattern.compile("(?ms)^\\s*```.*?^\\s*```");
  private static final Pattern BACKTICKED = Pattern.compile("`([^`\\n]+)`");
  /** Two or more capitalised words run together, as a Java type is named. */
  private static final Pattern TYPE_LIKE = Pattern.compile("\\b[A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)+\\b");
  /** One capitalised word opening the backticks, alone or with a member: {@code Secio.client(...)}. */
  private static final Pattern ONE_WORD_TYPE = Pattern.compile("^[A-Z][a-z0-9]+(?=$|[.#(<\\[])");
  private static final Pattern QUALIFIED = Pattern.compile("\\bio\\.secio(?:\\.[A-Za-z_]\\w*)+");
  private static final Pattern DECLARED = Pattern.compile(
      "\\b(?:class|interface|enum|record|@interface)\\s+([A-Z]\\w*)");
  private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
  private static final Pattern PROTO_OPTION =
      Pattern.compile("^option\\s+(java_package|java_outer_classname)\\s*=\\s*\"([\\w.]+)\"",
          Pattern.MULTILINE);
  private static final Pattern PROTO_MESSAGE =
      Pattern.compile("^\\s*(?:message|enum)\\s+(\\w+)", Pattern.MULTILINE);
  private static final Pattern MODULE =
      Pattern.compile("^(?:open\\s+)?module\\s+([\\w.]+)", Pattern.MULTILINE);

  /** Where an outside type a doc may name is looked for, to be loaded by this test. */
  private static final List<String> OUTSIDE_PACKAGES = List.of("java.lang", "java.util",
      "java.util.concurrent", "java.util.function", "java.io", "java.nio", "java.nio.channels",
      "java.net", "java.time", "java.security", "java.security.spec", "java.security.interfaces",
      "javax.crypto", "javax.crypto.spec", "javax.net.ssl", "javax.security.auth", "java.lang.invoke",
      "java.lang.reflect",
      "io.netty.buffer", "io.netty.channel", "io.netty.channel.socket", "io.netty.channel.nio",
      "io.netty.channel.embedded", "io.netty.channel.group", "io.netty.channel.local",
      "io.netty.handler.codec", "io.netty.handler.ssl", "io.netty.handler.timeout",
      "io.netty.handler.flow", "io.netty.handler.logging", "io.netty.handler.stream",
      "io.netty.handler.codec.string", "io.netty.util", "io.netty.util.concurrent",
      "io.netty.util.internal", "io.netty.bootstrap", "com.google.protobuf", "org.junit.jupiter.api",
      "org.junit.jupiter.params", "org.junit.jupiter.params.provider", "org.slf4j",
      "org.bouncycastle.jce.provider", "org.bouncycastle.math.ec.rfc8032",
      "org.bouncycastle.crypto.digests", "io.netty.handler.codec.compression",
      "io.netty.handler.codec.http", "io.netty.handler.codec.http.websocketx");

  /**
   * Outside names this test cannot load (not on consumer-check's class path: native epoll, Conscrypt,
   * JMH, Jazzer, picocli, tcnative), and words in backticks that only look like types.
   */
  private static final Set<String> OUTSIDE = Set.of(
      // Netty's native epoll, left off this module's class path on purpose.
      "EpollIoHandler", "EpollEventLoopGroup", "EpollSocketChannel", "EpollServerSocketChannel",
      "EpollChannelOption", "AbstractEpollChannel", "AbstractEpollStreamChannel", "EpollIoOps",
      // Netty's nested Errors.NativeIoException, its tcnative and HTTP/2 (named as models).
      "NativeIoException", "OpenSslEngine", "AbstractHttp2StreamChannel", "Http2FrameCodec",
      "Http2MultiplexHandler", "Http2StreamChannel",
      "Http2StreamChannelBootstrap", "Http2CodecUtil", "Http2FrameReader", "Http2FrameWriter",
      "Http2ConnectionHandler",
      // OkHttp, noise-java and Tink, named as models.
      "Http2Reader", "Http2Writer", "HandshakeState", "CipherState",
      // Conscrypt, JMH, Jazzer, picocli.
      "OpenSSLProvider", "NativeCrypto", "FuzzTest", "FuzzedDataProvider", "CommandLine",
      // Other projects' names: js's BufferList (bl), tentacle's ConnectSelf error.
      "BufferList", "ConnectSelf",
      // Words of the protocols, not classes: cipher names go-libp2p proposes, a yamux frame type,
      // algorithm and curve names, protobuf fields, a molecule type, a base58 prefix.
      "TwofishCTR", "BlowfishCTR", "Blowfish", "WindowUpdate", "X25519", "Ed25519", "Secp256k1",
      "Type", "Data", "Bytes", "Qm",
      // CKB's molecule types and tentacle's and the light client's Rust names, as their logs print
      // them; a browser's type; an HTTP header; a JVM flag.
      "Bool", "RawHeader", "InIBD", "GetBlocksProof", "SendLastStateProof", "TcpAndWs",
      "LightClient", "RelayProtocol", "SessionId", "SessionOpen", "ChaCha20Poly1305",
      "SharedArrayBuffer", "Upgrade", "ActiveProcessorCount",
      // Netty's Channel.Unsafe, named as a member of Channel.
      "Unsafe");

  @Test
  void everyClassADocNamesExists() throws IOException {
    Names ours = Names.of(ROOT);
    List<Path> docs = docs();
    assertTrue(docs.contains(ROOT.resolve("README.md")) && docs.size() >= 8, "docs found: " + docs);
    List<String> missing = new ArrayList<>();
    for (Path doc : docs) {
      Set<String> unknown = unknownNames(Files.readString(doc), ours);
      if (!unknown.isEmpty()) {
        missing.add(ROOT.relativize(doc) + ": " + String.join(", ", unknown));
      }
    }
    assertTrue(missing.isEmpty(), "names in docs that no code declares:\n" + String.join("\n", missing));
  }

  /** The check itself, on a repository of one class: what it reports, and what it leaves alone. */
  @Test
  void aNameNoCodeDeclaresIsReported(@TempDir Path repo) throws IOException {
    Path source = repo.resolve("m/src/main/java/io/secio/real/RealThing.java");
    Files.createDirectories(source.getParent());
    Files.writeString(source, "package io.secio.real;\npublic final class RealThing {\n"
        + "  public enum Part { ONE }\n  public static void run() {}\n}\n");
    String doc = "Call `RealThing.run()` (a `RealThing.Part`, `io.secio.real.RealThing#run`) with a"
        + " `String` and a `ChannelHandler`; run `-DskipTests`, the tests `RealThing*Test`.\n"
        + "```java\nGoneThing shown = null;\n```\n"
        + "`GoneThing` was renamed, and `Gone.run()`; `io.secio.real.Missing`, `io.secio.gone`,"
        + " `io.secio.real.RealThing.Gone` too. `Part` is real, `Arrays` the JDK's.\n";

    Set<String> unknown = unknownNames(doc, Names.of(repo));

    assertEquals(Set.of("GoneThing", "Gone", "io.secio.real.Missing", "io.secio.gone",
        "io.secio.real.RealThing.Gone"), unknown);
  }

  /** The names in {@code markdown} outside fenced blocks that {@code names} does not know. */
  private static Set<String> unknownNames(String markdown, Names names) {
    String text = FENCE.matcher(markdown).replaceAll("");
    Set<String> unknown = new TreeSet<>();
    Matcher quoted = BACKTICKED.matcher(text);
    while (quoted.find()) {
      Matcher word = ONE_WORD_TYPE.matcher(quoted.group(1));
      if (word.find() && !names.knows(word.group())) {
        unknown.add(word.group());
      }
      Matcher type = TYPE_LIKE.matcher(quoted.group(1));
      while (type.find()) {
        if (!startsAQualifiedName(quoted.group(1), type.start())
            && !isAFlagOrAGlob(quoted.group(1), type.start(), type.end())
            && !names.knows(type.group())) {
          unknown.add(type.group());
        }
      }
    }
    Matcher qualified = QUALIFIED.matcher(text);
    while (qualified.find()) {
      if (!names.hasQualified(qualified.group())) {
        unknown.add(qualified.group());
      }
    }
    return unknown;
  }

  /** A type-like word inside {@code io.secio....}: the qualified check covers it. */
  private static boolean startsAQualifiedName(String quoted, int at) {
    return at > 0 && quoted.charAt(at - 1) == '.' && quoted.lastIndexOf("io.secio", at) >= 0;
  }

  /** A word of a command-line flag ({@code -DskipTests}) or of a glob ({@code SecioFrame*Test}). */
  private static boolean isAFlagOrAGlob(String quoted, int start, int end) {
    return start > 0 && (quoted.charAt(start - 1) == '-' || quoted.charAt(start - 1) == '*')
        || end < quoted.length() && quoted.charAt(end) == '*';
  }

  /** Every Markdown file a reader may open, less the records of the past (see the class comment). */
  private static List<Path> docs() throws IOException {
    try (Stream<Path> files = Files.walk(ROOT)) {
      return files.filter(f -> f.toString().endsWith(".md"))
          .filter(f -> {
            Path rel = ROOT.relativize(f);
            for (Path part : rel) {
              if (NOT_SOURCES.contains(part.toString()) || HISTORY_FOLDERS.contains(part.toString())) {
                return false;
              }
            }
            return !HISTORY.contains(rel.toString()) && !rel.startsWith("benchmarks/results");
          })
          .sorted().toList();
    }
  }

  /** The types, packages and modules this repository declares, and the outside ones. */
  private static final class Names {
    final Set<String> simple = new HashSet<>();
    final Set<String> qualified = new HashSet<>();

    static Names of(Path root) throws IOException {
      Names names = new Names();
      try (Stream<Path> files = Files.walk(root)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
          if (isBuildOutput(root, f)) {
            continue;
          }
          String source = read(f);
          Matcher m = MODULE.matcher(source);
          if (f.getFileName().toString().equals("module-info.java") && m.find()) {
            names.qualified.add(m.group(1));
            continue;
          }
          Matcher p = PACKAGE.matcher(source);
          String pkg = p.find() ? p.group(1) : "";
          addPackages(names.qualified, pkg);
          String top = f.getFileName().toString().replaceFirst("\\.java$", "");
          names.qualified.add(pkg + "." + top);
          Matcher d = DECLARED.matcher(source);
          while (d.find()) {
            names.simple.add(d.group(1));
            if (!d.group(1).equals(top)) {
              names.qualified.add(pkg + "." + top + "." + d.group(1));
            }
          }
        }
      }
      names.addGeneratedProtobuf(root.resolve("proto/src/main/proto"));
      return names;
    }

    /** The classes protoc generates: each file's outer class, with its messages nested in it. */
    private void addGeneratedProtobuf(Path protos) throws IOException {
      if (!Files.isDirectory(protos)) {
        return;
      }
      try (Stream<Path> files = Files.list(protos)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".proto")).toList()) {
          String source = read(f);
          String pkg = "";
          String outer = "";
          Matcher option = PROTO_OPTION.matcher(source);
          while (option.find()) {
            if (option.group(1).equals("java_package")) {
              pkg = option.group(2);
            } else {
              outer = option.group(2);
            }
          }
          addPackages(qualified, pkg);
          qualified.add(pkg + "." + outer);
          simple.add(outer);
          Matcher message = PROTO_MESSAGE.matcher(source);
          while (message.find()) {
            simple.add(message.group(1));
            qualified.add(pkg + "." + outer + "." + message.group(1));
          }
        }
      }
    }

    private static boolean isBuildOutput(Path root, Path f) {
      for (Path part : root.relativize(f)) {
        if (NOT_SOURCES.contains(part.toString())) {
          return true;
        }
      }
      return false;
    }

    private static void addPackages(Set<String> into, String pkg) {
      for (String p = pkg; !p.isEmpty(); p = p.contains(".") ? p.substring(0, p.lastIndexOf('.')) : "") {
        into.add(p);
      }
    }

    boolean knows(String type) {
      return simple.contains(type) || OUTSIDE.contains(type) || loadable(type);
    }

    /**
     * A qualified name of ours: a module, a package or a type under exactly that name, or a type
     * followed by one of its members (a method, a field, a constant).
     */
    boolean hasQualified(String name) {
      for (String known = name; known.contains("."); known = known.substring(0, known.lastIndexOf('.'))) {
        if (qualified.contains(known)) {
          if (known.equals(name)) {
            return true;
          }
          String next = name.substring(known.length() + 1).split("\\.")[0];
          boolean knownIsType = Character.isUpperCase(known.charAt(known.lastIndexOf('.') + 1));
          // A member of a type, or a placeholder in capitals (io.secio.examples.NAME).
          return next.matches("[A-Z0-9_]+") || knownIsType && Character.isLowerCase(next.charAt(0));
        }
      }
      return false;
    }

    private static boolean loadable(String simpleName) {
      for (String pkg : OUTSIDE_PACKAGES) {
        try {
          Class.forName(pkg + "." + simpleName, false, DocNamesTest.class.getClassLoader());
          return true;
        } catch (ClassNotFoundException | LinkageError e) {
          // not in this package
        }
      }
      return false;
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
