package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.secio.Dialect;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.IdentityPublicKey;
import io.secio.identity.KeyType;
import io.secio.testsupport.ChildProcess;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code secio bridge} answers every kind of dialer it claims to (libp2p v0.1, libp2p v0.2 and
 * tentacle) in front of either kind of upstream (a v0.2-only libp2p listener, and with {@code
 * --to-dialect tentacle} a tentacle-only one). Every process is the jar; the tentacle dialer is both
 * {@code dial --dialect tentacle} and the first two frames a real tentacle-secio 0.6.1 dialer sent
 * (a recorded transcript), replayed over a raw socket.
 */
class BridgeDialectsIT {
  private static final Path TRANSCRIPT = Path.of(System.getProperty("basedir", "."), "..",
      "secio-core", "src", "test", "resources", "vectors", "tentacle", "defaults_fixed.json");
  private static final String BYTES = "200000";

  @RegisterExtension
  final Processes processes = new Processes();

  @TempDir
  Path keys;

  @ParameterizedTest(name = "--to-dialect {0}")
  @ValueSource(strings = {"libp2p", "tentacle"})
  void everyKindOfDialerReachesTheUpstreamThroughTheBridge(String upstreamDialect) throws Exception {
    boolean tentacle = upstreamDialect.equals("tentacle");
    Keys.Key upstreamKey = Keys.write(keys, tentacle ? KeyType.SECP256K1 : KeyType.ED25519);
    String upstreamId = tentacle ? tentacleId(upstreamKey) : upstreamKey.peerId();
    ChildProcess upstream = processes.secio("listen", "--port", "0", "--echo", "--key", upstreamKey.path(),
        tentacle ? "--dialect" : "--mode", tentacle ? "tentacle" : "v0.2");
    String upstreamAddress = upstream.awaitOut("listening (\\S+) " + upstreamId).group(1);

    Keys.Key bridgeKey = Keys.write(keys, KeyType.SECP256K1);
    String bridgeTentacleId = tentacleId(bridgeKey);
    ChildProcess bridge = processes.secio("bridge", "--listen", "0", "--to", upstreamAddress,
        "--to-dialect", upstreamDialect, "--expect-peer", upstreamId, "--key", bridgeKey.path());
    String address = bridge.awaitOut("listening (127\\.0\\.0\\.1:\\d+) " + bridgeKey.peerId() + ".*").group(1);

    replayTentacleDialer(address, bridgeKey);
    bridge.awaitOut("failed 127\\.0\\.0\\.1:\\d+ bad signature in Exchange");

    Keys.Key v01 = Keys.write(keys, KeyType.ED25519);
    Keys.Key v02 = Keys.write(keys, KeyType.ECDSA);
    Keys.Key tentacleDialer = Keys.write(keys, KeyType.SECP256K1);
    List<ChildProcess> dials = List.of(
        processes.secio("dial", address, "--mode", "v0.1", "--key", v01.path(),
            "--expect-peer", bridgeKey.peerId(), "--send-bytes", BYTES),
        processes.secio("dial", address, "--mode", "v0.2", "--key", v02.path(),
            "--expect-peer", bridgeKey.peerId(), "--send-bytes", BYTES),
        processes.secio("dial", address, "--dialect", "tentacle", "--key", tentacleDialer.path(),
            "--expect-peer", bridgeTentacleId, "--send-bytes", BYTES));
    List<String> secured = List.of(
        "secured " + bridgeKey.peerId() + " exchange=P-256 cipher=AES-256 hash=SHA256 version=v0\\.1",
        "secured " + bridgeKey.peerId() + " exchange=P-256 cipher=AES-128-GCM hash=SHA256 version=v0\\.2",
        "secured " + bridgeTentacleId + " exchange=P-256 cipher=AES-128-GCM hash=SHA256 version=v0\\.2 dialect=tentacle");
    for (int i = 0; i < dials.size(); i++) {
      ChildProcess dial = dials.get(i);
      dial.awaitOut(secured.get(i));
      dial.awaitOut("echoed " + BYTES + " bytes in \\d+ ms .*");
      assertEquals(0, dial.awaitExit(), dial::toString);
    }

    String upstreamSession = upstreamId + " .* version=v0\\.2" + (tentacle ? " dialect=tentacle" : "");
    bridge.awaitOut("secured " + v01.peerId() + " .* version=v0\\.1");
    bridge.awaitOut("upstream " + upstreamSession + " for " + v01.peerId());
    bridge.awaitOut("secured " + v02.peerId() + " .* version=v0\\.2");
    bridge.awaitOut("upstream " + upstreamSession + " for " + v02.peerId());
    String tentacleClient = tentacleId(tentacleDialer);
    bridge.awaitOut("secured " + tentacleClient + " .* version=v0\\.2 dialect=tentacle");
    bridge.awaitOut("upstream " + upstreamSession + " for " + tentacleClient);
    // The upstream knows each of them as the bridge, in its own dialect's form.
    String bridgeAsUpstreamSees = tentacle ? bridgeTentacleId : bridgeKey.peerId();
    long bridged = 0;
    for (int i = 0; i < 3; i++) {
      upstream.awaitOut("secured " + bridgeAsUpstreamSees + " .*");
    }
    for (String line : upstream.outLines()) {
      bridged += line.startsWith("secured " + bridgeAsUpstreamSees + " ") ? 1 : 0;
    }
    assertEquals(3, bridged, upstream::toString);
  }

  /**
   * Sends the Propose and Exchange a real tentacle dialer sent (transcript side A) and checks that
   * the bridge answers in tentacle's dialect: a molecule Propose holding the bridge's compressed key.
   * The recorded Exchange signs the recorded peer's Propose, not the bridge's, so the bridge then
   * fails it on its signature: proof that it read both messages as tentacle's.
   */
  private static void replayTentacleDialer(String address, Keys.Key bridgeKey) throws Exception {
    JsonObject transcript = JsonParser.parseString(Files.readString(TRANSCRIPT)).getAsJsonObject();
    HostPort bridge = HostPort.parse(address, null);
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), bridge.port())) {
      socket.setSoTimeout((int) ChildProcess.WAIT.toMillis());
      OutputStream out = socket.getOutputStream();
      out.write(frame(transcript, 0));
      out.flush();
      DataInputStream in = new DataInputStream(socket.getInputStream());
      byte[] propose = new byte[in.readInt()];
      in.readFully(propose);
      ByteBuffer table = ByteBuffer.wrap(propose).order(ByteOrder.LITTLE_ENDIAN);
      assertEquals(propose.length, table.getInt(0), "a molecule table's first word is its length");
      IdentityPublicKey key = IdentityKeyPair.read(bridgeKey.file()).publicKey();
      byte[] union = ByteBuffer.allocate(8 + 33).order(ByteOrder.LITTLE_ENDIAN)
          .putInt(0).putInt(33).put(key.keyData()).array();
      assertTrue(indexOf(propose, union) >= 0, "the bridge's key as a PublicKey{Secp256k1} union");
      out.write(frame(transcript, 1));
      out.flush();
      in.transferTo(OutputStream.nullOutputStream()); // the bridge's Exchange, then its close
    }
  }

  /** Frame {@code index} that side A sent, with its length prefix. */
  private static byte[] frame(JsonObject transcript, int index) {
    JsonObject frame = transcript.getAsJsonArray("frames_A_to_B").get(index).getAsJsonObject();
    HexFormat hex = HexFormat.of();
    byte[] prefix = hex.parseHex(frame.get("len_prefix").getAsString());
    byte[] body = hex.parseHex(frame.get("frame_hex").getAsString());
    byte[] framed = Arrays.copyOf(prefix, prefix.length + body.length);
    System.arraycopy(body, 0, framed, prefix.length, body.length);
    return framed;
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
        return i;
      }
    }
    return -1;
  }

  private static String tentacleId(Keys.Key key) throws Exception {
    return Dialect.TENTACLE.peerId(IdentityKeyPair.read(key.file()).publicKey()).toBase58();
  }
}
