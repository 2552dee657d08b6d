package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.identity.KeyType;
import io.secio.testsupport.ChildProcess;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The README's command-line lines, run as a user runs them: the {@code ```sh} block after {@code
 * <!-- cli -->}, each line through bash in an empty folder, with {@code secio} standing for {@code
 * java -jar secio.jar} and port 4001 for a free one. A line ending in {@code &} is a server: it must
 * print its {@code listening} line; every other line must exit 0. The recipe must work for every key
 * type ({@code keygen --type} replaced), and for a secp256k1 key in tentacle's dialect ({@code
 * --dialect tentacle} added to {@code id} and {@code dial}); {@code secio demo} runs in the first only.
 */
class ReadmeCliIT {
  private static final Path README = Path.of(System.getProperty("basedir", "."), "..", "README.md");
  private static final Pattern BLOCK = Pattern.compile("<!-- cli -->\\s*\\n```sh\\n(.*?)\\n```", Pattern.DOTALL);
  private static final Pattern SECIO = Pattern.compile("(^|\\| |\\$\\()secio ");
  /** One base58 peer id and nothing else: what {@code --expect-peer "$(secio id FILE)"} needs. */
  private static final String PEER_ID = "[1-9A-HJ-NP-Za-km-z]{40,}";

  @RegisterExtension
  final Processes processes = new Processes();

  @TempDir
  Path dir;

  static Stream<Arguments> variants() {
    return Stream.concat(
        Arrays.stream(KeyType.values()).map(type -> Arguments.of(type.name().toLowerCase(Locale.ROOT), false)),
        Stream.of(Arguments.of("secp256k1", true)));
  }

  @ParameterizedTest(name = "--type {0}, tentacle {1}")
  @MethodSource("variants")
  void theReadmeCommandLinesWork(String keyType, boolean tentacle) throws Exception {
    Matcher block = BLOCK.matcher(Files.readString(README));
    assertTrue(block.find(), "the README has a <!-- cli --> ```sh block");
    List<String> lines = block.group(1).lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    boolean asWritten = keyType.equals("ed25519") && !tentacle;
    String port = Integer.toString(freePort());
    String keygenId = null;
    boolean echoed = false;
    for (String written : lines) {
      if (!asWritten && written.startsWith("secio demo")) {
        continue; // the same demo whatever the key: once is enough
      }
      String line = written.replaceFirst("--type \\S+", "--type " + keyType);
      if (tentacle) {
        line = line.replace("secio id ", "secio id --dialect tentacle ").replace("secio dial ", "secio dial --dialect tentacle ");
      }
      String command = SECIO.matcher(line.replace("4001", port)).replaceAll("$1" + java());
      if (command.endsWith("&")) {
        ChildProcess server = processes.start(bash("exec " + command.substring(0, command.length() - 1)));
        server.awaitOut("listening 127\\.0\\.0\\.1:" + port + " " + PEER_ID);
        continue;
      }
      ChildProcess run = processes.start(bash(command));
      assertEquals(0, run.awaitExit(), line + "\n" + run);
      List<String> out = run.outLines();
      if (line.startsWith("secio keygen") || line.startsWith("secio id")) {
        assertEquals(1, out.size(), line + " prints one line: " + out);
        assertTrue(out.get(0).matches(PEER_ID), line + " prints one peer id: " + out);
      }
      if (line.startsWith("secio keygen")) {
        keygenId = out.get(0);
      } else if (line.startsWith("secio id") && !tentacle) {
        assertEquals(keygenId, out.get(0), "keygen and id print the same id");
      }
      if (line.contains("secio dial")) {
        assertEquals(List.of("hello"), out, "the listener echoes what dial sent");
        echoed = true;
      }
    }
    assertTrue(keygenId != null && echoed, "the block makes a key and dials a listener: " + lines);
  }

  private List<String> bash(String command) {
    return List.of("bash", "-c", "set -euo pipefail; cd '" + dir + "'; " + command);
  }

  private static String java() {
    return "'" + Path.of(System.getProperty("java.home"), "bin", "java") + "' -XX:TieredStopAtLevel=1 "
        + "-XX:+UseSerialGC -jar '" + Processes.jar().toAbsolutePath() + "' ";
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
