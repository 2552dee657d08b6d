package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.secio.Dialect;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.testsupport.ChildProcess;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI in tentacle's dialect, every process the jar as a user starts it: {@code id --dialect
 * tentacle} prints the tentacle id, a listener answers a tentacle dialer and a libp2p one on one port, {@code --expect-peer} takes
 * the tentacle form, and {@code bridge --to-dialect tentacle} lets a v0.1 peer reach a node that
 * speaks only tentacle.
 */
class TentacleCliIT {
  @RegisterExtension
  final Processes processes = new Processes();

  @TempDir
  Path keys;

  private static String tentacleId(Keys.Key key) throws Exception {
    return Dialect.TENTACLE.peerId(IdentityKeyPair.read(key.file()).publicKey()).toBase58();
  }

  @Test
  void idPrintsTheTentacleIdOfASecp256k1KeyWhenAsked() throws Exception {
    Keys.Key key = Keys.write(keys, KeyType.SECP256K1);
    ChildProcess libp2p = processes.secio("id", key.path());
    ChildProcess tentacle = processes.secio("id", "--dialect", "tentacle", key.path());
    assertEquals(0, libp2p.awaitExit(), libp2p::toString);
    assertEquals(List.of(key.peerId()), libp2p.outLines());
    assertEquals(0, tentacle.awaitExit(), tentacle::toString);
    assertEquals(List.of(tentacleId(key)), tentacle.outLines());
  }

  @Test
  void oneListenerAnswersATentacleAndALibp2pDialer() throws Exception {
    Keys.Key listenerKey = Keys.write(keys, KeyType.SECP256K1);
    String tentacleId = tentacleId(listenerKey);
    ChildProcess listen = processes.secio("listen", "--port", "0", "--echo", "--key", listenerKey.path());
    String address = listen.awaitOut("listening (127\\.0\\.0\\.1:\\d+) " + listenerKey.peerId()).group(1);
    listen.awaitOut("tentacle " + tentacleId);

    Keys.Key dialerKey = Keys.write(keys, KeyType.SECP256K1);
    ChildProcess tentacle = processes.secio("dial", address, "--dialect", "tentacle", "--key", dialerKey.path(),
        "--expect-peer", tentacleId, "--send-bytes", "300K");
    tentacle.awaitOut("secured " + tentacleId
        + " exchange=P-256 cipher=AES-128-GCM hash=SHA256 version=v0\\.2 dialect=tentacle");
    tentacle.awaitOut("echoed 307200 bytes .*");
    assertEquals(0, tentacle.awaitExit(), tentacle::toString);
    listen.awaitOut("secured " + tentacleId(dialerKey) + " .* version=v0\\.2 dialect=tentacle");

    ChildProcess libp2p = processes.secio("dial", address, "--mode", "v0.1",
        "--expect-peer", listenerKey.peerId(), "--send-bytes", "100K");
    libp2p.awaitOut("secured " + listenerKey.peerId() + " exchange=P-256 cipher=AES-256 hash=SHA256 version=v0\\.1");
    assertEquals(0, libp2p.awaitExit(), libp2p::toString);
  }

  @Test
  void theExpectedPeerIsInTheDialectsForm() throws Exception {
    Keys.Key listenerKey = Keys.write(keys, KeyType.SECP256K1);
    ChildProcess listen = processes.secio("listen", "--port", "0", "--dialect", "tentacle", "--echo",
        "--key", listenerKey.path());
    // A listener forced to tentacle prints its tentacle id.
    String address = listen.awaitOut("listening (127\\.0\\.0\\.1:\\d+) " + tentacleId(listenerKey)).group(1);
    ChildProcess wrong = processes.secio("dial", address, "--dialect", "tentacle",
        "--expect-peer", listenerKey.peerId(), "--send-bytes", "10");
    assertEquals(SecioCli.EXIT_FAILURE, wrong.awaitExit(), wrong::toString);
    // The id received is shown, in the dialect's form: what the user should have passed.
    wrong.awaitErr("failed " + address + " remote peer id does not match the expected one: expected "
        + listenerKey.peerId() + ", got " + tentacleId(listenerKey));
  }

  @Test
  void aV01PeerReachesATentacleOnlyNodeThroughTheBridge() throws Exception {
    Keys.Key nodeKey = Keys.write(keys, KeyType.SECP256K1);
    String nodeId = tentacleId(nodeKey);
    ChildProcess node = processes.secio("listen", "--port", "0", "--dialect", "tentacle", "--echo",
        "--key", nodeKey.path());
    String nodeAddress = node.awaitOut("listening (\\S+) " + nodeId).group(1);
    ChildProcess bridge = processes.secio("bridge", "--listen", "0", "--to", nodeAddress,
        "--to-dialect", "tentacle", "--expect-peer", nodeId);
    // The bridge's key is secp256k1; the upstream knows it by its tentacle id.
    Matcher listening = bridge.awaitOut("listening (127\\.0\\.0\\.1:\\d+) 16Uiu2\\S+ tentacle=(Qm\\S+)");
    String bridgeAddress = listening.group(1);

    ChildProcess dial = processes.secio("dial", bridgeAddress, "--mode", "v0.1", "--send-bytes", "1000000");
    dial.awaitOut("secured \\S+ exchange=P-256 cipher=AES-256 hash=SHA256 version=v0\\.1");
    dial.awaitOut("echoed 1000000 bytes in \\d+ ms .*");
    assertEquals(0, dial.awaitExit(), dial::toString);
    bridge.awaitOut("upstream " + nodeId + " .* version=v0\\.2 dialect=tentacle for \\S+");
    node.awaitOut("secured " + listening.group(2) + " .* dialect=tentacle");
  }
}
