package io.secio.benchmarks;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The stream echo runs, interleaved in rounds, each run in a JVM of its own, each round starting one
 * run further down the list (as {@link EchoSuite}): secio alone ({@link Echo}, AES-128-GCM, one
 * connection, {@code ECHO_BYTES}), one stream inside secio ({@link StreamEcho}, {@code ECHO_BYTES}),
 * 64 streams at once on one session ({@code MANY_BYTES} each), and the 64 streams again with the
 * socket's {@code TCP_NOTSENT_LOWAT} left at the kernel's (the muxer's default lowers it); yamux, or
 * mplex with {@code -Dstreams.muxer=mplex}. Appends one
 * JSON line per run to {@code OUT.jsonl}; {@code stream_report.py} computes the ratios from it.
 *
 * <pre>java -cp benchmarks.jar io.secio.benchmarks.StreamSuite OUT.jsonl ROUNDS ECHO_BYTES MANY_BYTES</pre>
 */
public final class StreamSuite {
  private StreamSuite() {}

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args[0]);
    int rounds = Integer.parseInt(args[1]);
    String echoBytes = args[2];
    String manyBytes = args[3];
    List<List<String>> runs = List.of(
        List.of(Echo.class.getName(), "SECIO_AES_128_GCM", "1", echoBytes),
        List.of(StreamEcho.class.getName(), "1", echoBytes),
        List.of(StreamEcho.class.getName(), "64", manyBytes),
        List.of("-Dstreams.notSentLowWater=0", StreamEcho.class.getName(), "64", manyBytes));
    Files.deleteIfExists(out);
    for (int round = 0; round < rounds; round++) {
      for (int i = 0; i < runs.size(); i++) {
        String line = "{\"round\": " + round + ", " + runInOwnJvm(runs.get((i + round) % runs.size())).substring(1);
        System.err.println("StreamSuite: " + line);
        Files.writeString(out, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      }
    }
  }

  private static String runInOwnJvm(List<String> mainAndArgs) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path")));
    for (String property : List.of("echo.warmUpSeconds", "yamux.profile", "streams.muxer", "streams.notSentLowWater")) {
      if (System.getProperty(property) != null) {
        command.add("-D" + property + "=" + System.getProperty(property));
      }
    }
    command.addAll(mainAndArgs);
    Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String last = null;
    try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        last = line;
      }
    }
    if (process.waitFor() != 0 || last == null || !last.startsWith("{")) {
      throw new IllegalStateException(mainAndArgs + " failed: " + last);
    }
    return last;
  }
}
