package io.secio.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The echo runs of {@link Echo}, interleaved: in every round each stack runs once, each run in a JVM
 * of its own (the same for all stacks, and the only way to run TLS 1.3 ChaCha20 beside the others:
 * BoringSSL picks it only with PCLMULQDQ hidden, see benchmarks/README.md), and each round starts one
 * stack further down the list so that no stack always follows the same one. A ratio is taken between
 * two runs of the same round, a minute apart at most, so the machine's load moves both; {@code
 * report.py} gives the median and the spread of each.
 *
 * <pre>java -cp benchmarks.jar io.secio.benchmarks.EchoSuite OUT.jsonl ROUNDS ECHO_BYTES MANY_BYTES</pre>
 *
 * The single-connection echo moves {@code ECHO_BYTES} (1 GiB in the published runs) through each
 * stack in every round; the many-connection echo, {@value #MANY_CONNECTIONS} connections of {@code
 * MANY_BYTES} each (16 MiB), runs for plaintext, TLS 1.3 and secio AES-128-GCM in the same rounds. One
 * JSON object per run goes to {@code OUT.jsonl}, with its round.
 */
public final class EchoSuite {
  static final int MANY_CONNECTIONS = 64;
  static final List<Stack> ECHO_STACKS = List.of(Stack.values());
  static final List<Stack> MANY_STACKS =
      List.of(Stack.PLAIN, Stack.TLS13_AES_128_GCM, Stack.SECIO_AES_128_GCM);
  /** Hides PCLMULQDQ from BoringSSL, so that TLS 1.3 negotiates ChaCha20-Poly1305. */
  private static final String HIDE_PCLMULQDQ = "~0x200000000";

  private EchoSuite() {}

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args[0]);
    int rounds = Integer.parseInt(args[1]);
    long echoBytes = Long.parseLong(args[2]);
    long manyBytes = Long.parseLong(args[3]);
    Files.deleteIfExists(out);
    for (int round = 0; round < rounds; round++) {
      for (Stack stack : rotated(ECHO_STACKS, round)) {
        record(out, round, runInOwnJvm(stack, 1, echoBytes));
      }
      for (Stack stack : rotated(MANY_STACKS, round)) {
        record(out, round, runInOwnJvm(stack, MANY_CONNECTIONS, manyBytes));
      }
    }
  }

  private static <T> List<T> rotated(List<T> list, int by) {
    List<T> out = new ArrayList<>(list.subList(by % list.size(), list.size()));
    out.addAll(list.subList(0, by % list.size()));
    return out;
  }

  private static void record(Path out, int round, String json) throws IOException {
    String line = "{\"round\": " + round + ", " + json.substring(1);
    System.err.println("EchoSuite: " + line);
    Files.writeString(out, line + "\n", StandardCharsets.UTF_8,
        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  /** One {@link Echo} run in a new JVM; returns the JSON object it printed. */
  private static String runInOwnJvm(Stack stack, int connections, long bytes)
      throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"),
        Echo.class.getName(), stack.name(), Integer.toString(connections), Long.toString(bytes))
        .redirectError(ProcessBuilder.Redirect.INHERIT);
    if (stack == Stack.TLS13_CHACHA20_POLY1305) {
      builder.environment().put("OPENSSL_ia32cap", HIDE_PCLMULQDQ);
    }
    Process process = builder.start();
    String json = null;
    try (BufferedReader reader = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        if (line.startsWith("{")) {
          json = line;
        }
      }
    }
    int exit = process.waitFor();
    if (exit != 0 || json == null) {
      throw new IllegalStateException(stack + " echo run failed with exit code " + exit);
    }
    return json;
  }
}
