package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.secio.identity.KeyType;
import io.secio.testsupport.ChildProcess;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real libp2p peer, js-libp2p-secio 0.13.1 (the interop peer of secio-netty's tests), dials {@code
 * secio listen --echo} and checks its echo. Needs node and the peer's npm packages ({@code npm ci
 * --prefix secio-netty/src/test/js --ignore-scripts}): without them the test fails in CI and is
 * skipped, saying so, elsewhere ({@link Processes#requireJsPeers}).
 */
class JsDialsListenIT {
  private static final int BYTES = 1 << 20;

  @RegisterExtension
  final Processes processes = new Processes();

  @TempDir
  Path keys;

  @Test
  void jsLibp2pSecioDialsListenAndGetsItsEchoBack() throws Exception {
    Processes.requireJsPeers();
    Keys.Key key = Keys.write(keys, KeyType.ED25519);
    ChildProcess listen = processes.secio("listen", "--port", "0", "--echo", "--key", key.path());
    String port = listen.awaitOut("listening 127\\.0\\.0\\.1:(\\d+) " + key.peerId()).group(1);

    ChildProcess js = processes.node("secio-peer.js", "dial",
        "--host", "127.0.0.1", "--port", port, "--key-type", "secp256k1", "--expect-peer", key.peerId(),
        "--send-bytes", Integer.toString(BYTES), "--timeout-ms", Long.toString(ChildProcess.WAIT.toMillis()));
    assertEquals(0, js.awaitExit(), js::toString);
    JsonObject secured = JsonParser.parseString(js.awaitOut("\\{\"event\":\"secured\".*").group()).getAsJsonObject();
    JsonObject echoed = JsonParser.parseString(js.awaitOut("\\{\"event\":\"echoed\".*").group()).getAsJsonObject();
    assertEquals(key.peerId(), secured.get("remotePeer").getAsString());
    assertEquals(BYTES, echoed.get("bytes").getAsInt());

    String jsPeer = secured.get("localPeer").getAsString();
    listen.awaitOut("secured " + jsPeer + " exchange=" + secured.get("exchange").getAsString()
        + " cipher=" + secured.get("cipher").getAsString() + " hash=" + secured.get("hash").getAsString()
        + " version=v0\\.1");
  }
}
