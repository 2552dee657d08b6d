package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.Dialect;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bad peer of a stream stack is one clear line on each side, never a warning with a stack trace,
 * every process the jar as a user starts it: a plain secio dial against a tentacle session (whose
 * yamux reads the dialer's bytes as frames) and against a libp2p connection (whose muxer's
 * multistream-select reads them as its negotiation), and a tentacle session dialled expecting
 * another peer. {@link QuietFailureIT} does the same for secio alone, {@link Libp2pCliIT} for a
 * libp2p dial's refusals.
 */
class StackFailuresIT {
  @RegisterExtension
  final Processes processes = new Processes();

  @TempDir
  Path keys;

  /** What a process printed, each line: none from a stack trace or a logger's warning. */
  private static void noStackTrace(CliProcess process) {
    List<String> lines = new ArrayList<>(process.outLines());
    lines.addAll(process.errLines());
    for (String line : lines) {
      assertTrue(!line.matches("\\s+at \\S+.*") && !line.contains("WARN") && !line.contains("Exception"),
          () -> "a line of a stack trace or a warning: " + line + "\n" + process);
    }
  }

  private static String tentacleId(Keys.Key key) throws Exception {
    return Dialect.TENTACLE.peerId(IdentityKeyPair.read(key.file()).publicKey()).toBase58();
  }

  @Test
  void aSecioDialWithoutAProtocolAgainstATentacleSessionIsOneLineOnEachSide() throws Exception {
    Keys.Key listenKey = Keys.write(keys, KeyType.SECP256K1);
    CliProcess listen = processes.secio("listen", "--port", "0", "--dialect", "tentacle", "--key", listenKey.path(),
        "--protocol", "/test/echo:1,2", "--echo");
    String address = listen.awaitOut("listening (127\\.0\\.0\\.1:\\d+) " + tentacleId(listenKey)).group(1);

    Keys.Key dialKey = Keys.write(keys, KeyType.SECP256K1);
    CliProcess dial = processes.secio("dial", address, "--dialect", "tentacle", "--key", dialKey.path(),
        "--send-bytes", "1K");
    assertEquals(SecioCli.EXIT_FAILURE, dial.awaitExit(), dial::toString);
    assertEquals(List.of("failed " + address + " the peer answered with yamux frames, not the echo: it runs a "
        + "tentacle session (dial it with --protocol NAME:VERSIONS)"), dial.errLines(), dial::toString);
    listen.awaitErr("error " + tentacleId(dialKey) + " BAD_\\w+: .*");

    // A session after it: whatever the failure printed came before.
    CliProcess good = processes.secio("dial", address, "--dialect", "tentacle", "--key-type", "secp256k1",
        "--protocol", "/test/echo:1,2", "--send-bytes", "1K");
    assertEquals(0, good.awaitExit(), good::toString);
    listen.awaitOut("closed /test/echo after .*");
    assertEquals(1, listen.errLines().size(), listen::toString);
    noStackTrace(listen);
    noStackTrace(dial);
  }

  @Test
  void aTentacleSessionExpectingAnotherPeerIsOneLineOnEachSide() throws Exception {
    Keys.Key listenKey = Keys.write(keys, KeyType.SECP256K1);
    CliProcess listen = processes.secio("listen", "--port", "0", "--dialect", "tentacle", "--key", listenKey.path(),
        "--protocol", "/test/echo:1,2", "--echo");
    String address = listen.awaitOut("listening (127\\.0\\.0\\.1:\\d+) \\S+").group(1);
    String someoneElse = tentacleId(Keys.write(keys, KeyType.SECP256K1));

    CliProcess dial = processes.secio("dial", address, "--dialect", "tentacle", "--key-type", "secp256k1",
        "--protocol", "/test/echo:1,2", "--send-bytes", "1K", "--expect-peer", someoneElse);
    assertEquals(SecioCli.EXIT_FAILURE, dial.awaitExit(), dial::toString);
    assertEquals(List.of("failed " + address + " remote peer id does not match the expected one: expected "
        + someoneElse + ", got " + tentacleId(listenKey)), dial.errLines(), dial::toString);
    // The listener hears it too: the dialer left mid-handshake.
    listen.awaitOut("failed 127\\.0\\.0\\.1:\\d+ connection (closed during handshake|reset.*)");
    assertTrue(listen.errLines().isEmpty(), listen::toString);
    noStackTrace(listen);
    noStackTrace(dial);
  }

  @Test
  void aSecioDialWithoutAMuxerAgainstALibp2pConnectionIsOneLineOnEachSide() throws Exception {
    Keys.Key listenKey = Keys.write(keys, KeyType.ED25519);
    CliProcess listen = processes.secio("listen", "--port", "0", "--multistream", "--muxer", "mplex,yamux",
        "--echo", "--key", listenKey.path());
    String address = listen.awaitOut("listening (127\\.0\\.0\\.1:\\d+) \\S+").group(1);

    CliProcess dial = processes.secio("dial", address, "--multistream", "--send-bytes", "1K",
        "--expect-peer", listenKey.peerId());
    assertEquals(SecioCli.EXIT_FAILURE, dial.awaitExit(), dial::toString);
    assertEquals(List.of("failed " + address + " the peer answered with multistream-select, not the echo: it "
        + "negotiates a muxer (dial it with --muxer mplex|yamux)"), dial.errLines(), dial::toString);
    listen.awaitOut("failed 127\\.0\\.0\\.1:\\d+ multistream-select .*");
    assertTrue(listen.errLines().isEmpty(), listen::toString);
    noStackTrace(listen);
    noStackTrace(dial);
  }
}
