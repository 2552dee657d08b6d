package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.identity.KeyType;
import io.secio.testsupport.ChildProcess;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --multistream} on {@code dial}, {@code listen} and the listening side of {@code bridge}:
 * multistream-select picks {@code /secio/1.0.0} before secio runs, as between libp2p nodes.
 */
class MultistreamCliIT {
  @RegisterExtension
  final Processes processes = new Processes();

  @TempDir
  Path keys;

  @Test
  void dialAndListenNegotiateSecioAndEcho() throws Exception {
    Keys.Key listenKey = Keys.write(keys, KeyType.SECP256K1);
    Keys.Key dialKey = Keys.write(keys, KeyType.ED25519);
    ChildProcess listen = processes.secio("listen", "--port", "0", "--multistream", "--echo", "--key", listenKey.path());
    String address = listen.awaitOut("listening (127\\.0\\.0\\.1:\\d+) " + listenKey.peerId()).group(1);
    ChildProcess dial = processes.secio("dial", address, "--multistream", "--expect-peer", listenKey.peerId(),
        "--key", dialKey.path(), "--mode", "v0.1", "--send-bytes", "300000");
    dial.awaitOut("secured " + listenKey.peerId() + " exchange=P-256 cipher=AES-256 hash=SHA256 version=v0\\.1");
    dial.awaitOut("echoed 300000 bytes in \\d+ ms .*");
    assertEquals(0, dial.awaitExit(), dial::toString);
    listen.awaitOut("secured " + dialKey.peerId() + " .* version=v0\\.1");
    // A tentacle dialer starts secio at once, without multistream-select: it cannot be answered here,
    // so the secp256k1 listener offers no tentacle id.
    assertTrue(listen.outLines().stream().noneMatch(line -> line.startsWith("tentacle ")), listen::toString);
  }

  @Test
  void aDialWithMultistreamToAPlainListenerFailsClearlyOnBothSides() throws Exception {
    ChildProcess listen = processes.secio("listen", "--port", "0", "--echo");
    String address = listen.awaitOut("listening (127\\.0\\.0\\.1:\\d+) \\S+").group(1);
    ChildProcess dial = processes.secio("dial", address, "--multistream", "--send-bytes", "10");
    assertEquals(SecioCli.EXIT_FAILURE, dial.awaitExit(), dial::toString);
    dial.awaitErr("failed " + address + " multistream-select .*");
    // The listener read the multistream header as a secio length: far over the frame limit.
    listen.awaitOut("failed 127\\.0\\.0\\.1:\\d+ .*");
  }

  @Test
  void aListenerWithMultistreamReportsAPlainSecioDialerAsFailed() throws Exception {
    ChildProcess listen = processes.secio("listen", "--port", "0", "--multistream", "--echo");
    String address = listen.awaitOut("listening (127\\.0\\.0\\.1:\\d+) \\S+").group(1);
    ChildProcess dial = processes.secio("dial", address, "--send-bytes", "10");
    assertEquals(SecioCli.EXIT_FAILURE, dial.awaitExit(), dial::toString);
    listen.awaitOut("failed 127\\.0\\.0\\.1:\\d+ multistream-select .*");
  }

  @Test
  void bridgeAcceptsMultistreamOnItsListeningSide() throws Exception {
    Keys.Key upstreamKey = Keys.write(keys, KeyType.ED25519);
    Keys.Key bridgeKey = Keys.write(keys, KeyType.SECP256K1);
    ChildProcess upstream = processes.secio(
        "listen", "--port", "0", "--mode", "v0.2", "--echo", "--key", upstreamKey.path());
    String upstreamAddress = upstream.awaitOut("listening (\\S+) " + upstreamKey.peerId()).group(1);
    ChildProcess bridge = processes.secio("bridge", "--listen", "0", "--to", upstreamAddress, "--multistream",
        "--key", bridgeKey.path());
    String address = bridge.awaitOut("listening (127\\.0\\.0\\.1:\\d+) " + bridgeKey.peerId()).group(1);
    ChildProcess dial = processes.secio("dial", address, "--multistream", "--mode", "v0.1",
        "--expect-peer", bridgeKey.peerId(), "--send-bytes", "100000");
    dial.awaitOut("secured " + bridgeKey.peerId() + " .* cipher=AES-256 .* version=v0\\.1");
    dial.awaitOut("echoed 100000 bytes .*");
    assertEquals(0, dial.awaitExit(), dial::toString);
    upstream.awaitOut("secured " + bridgeKey.peerId() + " .* version=v0\\.2");
  }

  @Test
  void bridgeWithMultistreamReportsAPlainSecioDialerAsFailed() throws Exception {
    ChildProcess upstream = processes.secio("listen", "--port", "0", "--mode", "v0.2", "--echo");
    String upstreamAddress = upstream.awaitOut("listening (\\S+) \\S+").group(1);
    ChildProcess bridge = processes.secio("bridge", "--listen", "0", "--to", upstreamAddress, "--multistream");
    String address = bridge.awaitOut("listening (127\\.0\\.0\\.1:\\d+) \\S+").group(1);
    ChildProcess dial = processes.secio("dial", address, "--send-bytes", "10");
    assertEquals(SecioCli.EXIT_FAILURE, dial.awaitExit(), dial::toString);
    bridge.awaitOut("failed 127\\.0\\.0\\.1:\\d+ multistream-select .*");
  }
}
