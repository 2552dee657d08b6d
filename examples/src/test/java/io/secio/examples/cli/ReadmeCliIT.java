package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's command-line lines, run as a user runs them: the {@code ```sh} block after {@code
 * <!-- cli -->}, each line through bash in an empty folder, with {@code secio} standing for {@code
 * java -jar secio.jar} and port 4001 for a free one. A line ending in {@code &} is a server: it must
 * print its {@code listening} line; every other line must exit 0.
 */
class ReadmeCliIT {
  private static final Path README = Path.of(System.getProperty("basedir", "."), "..", "README.md");
  private static final Pattern BLOCK = Pattern.compile("<!-- cli -->\\s*\\n```sh\\n(.*?)\\n```", Pattern.DOTALL);
  private static final Pattern SECIO = Pattern.compile("(^|\\| |\\$\\()secio ");
  private static final String PEER_ID = "12D3KooW\\S+";

  @RegisterExtension
  final Processes processes = new Processes();

  @TempDir
  Path dir;

  @Test
  void theReadmeCommandLinesWork() throws Exception {
    Matcher block = BLOCK.matcher(Files.readString(README));
    assertTrue(block.find(), "the README has a <!-- cli --> ```sh block");
    List<String> lines = block.group(1).lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    String port = Integer.toString(freePort());
    String keyId = null;
    boolean echoed = false;
    for (String line : lines) {
      String command = SECIO.matcher(line.replace("4001", port)).replaceAll("$1" + java());
      if (command.endsWith("&")) {
        CliProcess server = processes.start(bash("exec " + command.substring(0, command.length() - 1)));
        server.awaitOut("listening 127\\.0\\.0\\.1:" + port + " " + PEER_ID);
        continue;
      }
      CliProcess run = processes.start(bash(command));
      assertEquals(0, run.awaitExit(), line + "\n" + run);
      List<String> out = run.outLines();
      if (line.startsWith("secio keygen") || line.startsWith("secio id")) {
        assertTrue(out.get(0).matches(PEER_ID), line + " prints a peer id: " + out);
        assertTrue(keyId == null || keyId.equals(out.get(0)), "keygen and id print the same id");
        keyId = out.get(0);
      }
      if (line.contains("secio dial")) {
        assertEquals(List.of("hello"), out, "the listener echoes what dial sent");
        echoed = true;
      }
    }
    assertTrue(keyId != null && echoed, "the block makes a key and dials a listener: " + lines);
  }

  private List<String> bash(String command) {
    return List.of("bash", "-c", "set -euo pipefail; cd '" + dir + "'; " + command);
  }

  private static String java() {
    return "'" + Path.of(System.getProperty("java.home"), "bin", "java") + "' -XX:TieredStopAtLevel=1 "
        + "-XX:+UseSerialGC -jar '" + CliProcess.jar().toAbsolutePath() + "' ";
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
