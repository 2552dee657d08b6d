package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.secio.testsupport.ChildProcess;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code secio demo} and {@code secio bench} run from the jar. */
class DemoBenchIT {
  @RegisterExtension
  final Processes processes = new Processes();

  @Test
  void demoShowsEveryModeNegotiatedAndTheOneThatCannotWork() throws Exception {
    ChildProcess demo = processes.secio("demo", "--bytes", "256K");
    assertEquals(0, demo.awaitExit(), demo::toString);
    String measured = " +\\d+\\.\\d ms +\\d+\\.\\d MiB/s  \\S+";
    demo.awaitOut("listener +dialer +exchange +cipher +hash +version +handshake +echo +backend");
    for (String cipher : List.of("AES-128-GCM", "AES-256-GCM", "CHACHA20_POLY1305")) {
      demo.awaitOut("v0\\.2 +v0\\.2 +P-256 +" + cipher + " +SHA256 +v0\\.2" + measured);
    }
    demo.awaitOut("v0\\.1 +v0\\.1 +P-256 +AES-256 +SHA256 +v0\\.1" + measured);
    demo.awaitOut("bridge +v0\\.2 +P-256 +AES-128-GCM +SHA256 +v0\\.2" + measured);
    demo.awaitOut("bridge +v0\\.1 +P-256 +AES-256 +SHA256 +v0\\.1" + measured);
    demo.awaitOut("v0\\.1 +v0\\.2 +failed: no common algorithms \\(as expected\\)");
    demo.awaitOut("tentacle +tentacle +P-256 +AES-128-GCM +SHA256 +v0\\.2" + measured);
    demo.awaitOut("tentacle +v0\\.1 +failed: malformed handshake message \\(as expected\\)");
    demo.awaitOut("any +tentacle +P-256 +AES-128-GCM +SHA256 +v0\\.2" + measured);
    demo.awaitOut("any +v0\\.1 +P-256 +AES-256 +SHA256 +v0\\.1" + measured);
    demo.awaitOut("relay +v0\\.1 +P-256 +AES-256 +SHA256 +v0\\.1" + measured);
    // The rows expected to fail fail on the listener's side too: quietly, no Netty warning.
    assertEquals(List.of(), demo.errLines(), demo::toString);
  }

  @Test
  void benchPrintsThroughputOfTheChosenCipher() throws Exception {
    ChildProcess bench = processes.secio("bench", "--cipher", "AES-128", "--bytes", "1M");
    assertEquals(0, bench.awaitExit(), bench::toString);
    bench.awaitOut("AES-128 +v0\\.1 +\\S+ +1048576 +\\d+ ms +\\d+\\.\\d MiB/s");
    assertEquals(3, bench.outLines().size(), bench::toString);
  }
}
