package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.secio.identity.KeyType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real libp2p peer, js-libp2p-secio 0.13.1 (the interop peer of secio-netty's tests), dials {@code
 * secio listen --echo} and checks its echo. Needs node and the peer's npm packages ({@code npm ci
 * --prefix secio-netty/src/test/js --ignore-scripts}): without them the test fails in CI and is
 * skipped, saying so, elsewhere.
 */
class JsDialsListenIT {
  private static final int BYTES = 1 << 20;

  @RegisterExtension
  final Processes processes = new Processes();

  @TempDir
  Path keys;

  static Path jsDir;

  /** In the test, not in {@code @BeforeAll}: an aborted test is reported as skipped, with its reason. */
  static void requireNodeAndPackages() {
    jsDir = Path.of(System.getProperty("secio.js.dir", "../secio-netty/src/test/js"));
    String missing = null;
    if (!nodeRuns()) {
      missing = "node is not on the PATH";
    } else if (!Files.isDirectory(jsDir.resolve("node_modules/libp2p-secio"))
        || !Files.isDirectory(jsDir.resolve("node_modules/libp2p"))) {
      missing = "no " + jsDir.resolve("node_modules") + " (run: npm ci --prefix secio-netty/src/test/js"
          + " --no-audit --no-fund --ignore-scripts)";
    }
    if (missing != null) {
      if ("true".equals(System.getenv("CI"))) {
        fail("js interop peer unavailable in CI: " + missing);
      }
      String reason = "js interop peer skipped: " + missing;
      System.err.println(reason); // in the build log too, not only in the test report
      Assumptions.abort(reason);
    }
  }

  private static boolean nodeRuns() {
    try {
      Process node = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
      node.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
      return node.waitFor(CliProcess.WAIT.toSeconds(), TimeUnit.SECONDS) && node.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  @Test
  void jsLibp2pSecioDialsListenAndGetsItsEchoBack() throws Exception {
    requireNodeAndPackages();
    Keys.Key key = Keys.write(keys, KeyType.ED25519);
    CliProcess listen = processes.secio("listen", "--port", "0", "--echo", "--key", key.path());
    String port = listen.awaitOut("listening 127\\.0\\.0\\.1:(\\d+) " + key.peerId()).group(1);

    CliProcess js = processes.start(List.of("node", jsDir.resolve("secio-peer.js").toString(), "dial",
        "--host", "127.0.0.1", "--port", port, "--key-type", "secp256k1", "--expect-peer", key.peerId(),
        "--send-bytes", Integer.toString(BYTES), "--timeout-ms", Long.toString(CliProcess.WAIT.toMillis())));
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
