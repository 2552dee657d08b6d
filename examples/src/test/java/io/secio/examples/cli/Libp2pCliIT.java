package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.identity.KeyType;
import io.secio.testsupport.ChildProcess;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code listen}/{@code dial --multistream --muxer}: a libp2p connection (secio, the muxer chosen by
 * multistream-select, a protocol per stream) between two processes, and from {@code dial} to a real
 * js-libp2p 0.29.4 node. One listener with both muxers serves a dialer of each: identify, pings, and
 * {@code /echo/1.0.0} streams whose every byte the dialer checks and whose half-close the listener
 * returns; a muxer or protocol the listener lacks fails the dial, saying which.
 */
class Libp2pCliIT {
  private static final int STREAMS = 4;
  /** Over mplex's 4 MiB a stream may hold unread: mplex has no flow control, so dial bounds what is in flight. */
  private static final int BYTES = 8 << 20;
  private static final int MESSAGE = 32 << 10;

  @RegisterExtension
  final Processes processes = new Processes();

  @TempDir
  Path keys;

  @Test
  void aListenerWithBothMuxersServesADialerOfEach() throws Exception {
    Keys.Key listenKey = Keys.write(keys, KeyType.ED25519);
    ChildProcess listen = processes.secio("listen", "--port", "0", "--multistream", "--muxer", "mplex,yamux",
        "--echo", "--key", listenKey.path());
    Matcher listening = listen.awaitOut("listening (127\\.0\\.0\\.1:(\\d+)) " + listenKey.peerId());
    String address = listening.group(1);
    for (String muxer : List.of("mplex", "yamux")) {
      String protocol = muxer.equals("mplex") ? "/mplex/6.7.0" : "/yamux/1.0.0";
      Keys.Key dialKey = Keys.write(keys, KeyType.SECP256K1);
      ChildProcess dial = processes.secio("dial", address, "--multistream", "--muxer", muxer,
          "--expect-peer", listenKey.peerId(), "--key", dialKey.path(), "--identify", "--ping", "3",
          "--send-bytes", Integer.toString(BYTES), "--streams", Integer.toString(STREAMS), "--message-size", "32K");
      assertEquals(0, dial.awaitExit(), dial::toString);
      List<String> out = dial.outLines();
      assertTrue(out.get(0).matches("secured " + listenKey.peerId() + " exchange=\\S+ .* version=v0\\.2"),
          dial::toString);
      assertEquals(List.of(
          "muxer " + listenKey.peerId() + " " + protocol,
          "identify peer " + listenKey.peerId(),
          "identify agent secio-java/0.1.0",
          "identify protocol-version ipfs/0.1.0",
          "identify protocols /ipfs/id/1.0.0 /ipfs/ping/1.0.0 /echo/1.0.0",
          "identify listen-addrs /ip4/127.0.0.1/tcp/" + listening.group(2)),
          out.subList(1, 7), dial::toString);
      assertTrue(out.get(7).matches("identify observed-addr /ip4/127\\.0\\.0\\.1/tcp/\\d+"), dial::toString);
      for (int i = 1; i <= 3; i++) {
        assertTrue(out.get(7 + i).matches("ping " + i + " time=\\d+\\.\\d{3} ms"), dial::toString);
      }
      assertTrue(out.get(11).matches("echoed " + STREAMS * BYTES + " bytes in \\d+ ms .*"), dial::toString);
      assertEquals("summary muxer=" + protocol + " protocol=/echo/1.0.0 streams=" + STREAMS
          + " messages=" + STREAMS * (BYTES / MESSAGE) + " max-message=" + MESSAGE + " bytes=" + BYTES,
          out.get(12), dial::toString);
      assertEquals(13, out.size(), dial::toString);

      listen.awaitOut("secured " + dialKey.peerId() + " .* version=v0\\.2");
      listen.awaitOut("muxer " + dialKey.peerId() + " " + Pattern.quote(protocol));
      // Every stream echoed in full: the listener's half-close came after the last byte.
      listen.awaitOut("closed /echo/1\\.0\\.0 from " + dialKey.peerId() + " after " + BYTES + " bytes", STREAMS);
      assertEquals(STREAMS, listen.outLines().stream()
          .filter(l -> l.equals("opened /echo/1.0.0 from " + dialKey.peerId())).count(), listen::toString);
    }
    assertTrue(listen.errLines().isEmpty(), listen::toString);
  }

  @Test
  void aMuxerOrProtocolTheListenerLacksOrAWrongPeerFailsTheDialSayingWhy() throws Exception {
    Keys.Key listenKey = Keys.write(keys, KeyType.ED25519);
    ChildProcess listen = processes.secio("listen", "--port", "0", "--multistream", "--muxer", "yamux",
        "--key", listenKey.path());
    String address = listen.awaitOut("listening (127\\.0\\.0\\.1:\\d+) \\S+").group(1);

    ChildProcess mplex = processes.secio("dial", address, "--multistream", "--muxer", "mplex", "--ping", "1");
    assertEquals(SecioCli.EXIT_FAILURE, mplex.awaitExit(), mplex::toString);
    assertEquals(List.of("failed " + address + " multistream-select no common protocol: refused [/mplex/6.7.0]"),
        mplex.errLines(), mplex::toString);

    // Without --echo the listener serves identify and ping only.
    ChildProcess echo = processes.secio("dial", address, "--multistream", "--muxer", "mplex,yamux", "--ping", "1",
        "--send-bytes", "10");
    assertEquals(SecioCli.EXIT_FAILURE, echo.awaitExit(), echo::toString);
    echo.awaitOut("muxer \\S+ /yamux/1\\.0\\.0");
    echo.awaitOut("ping 1 time=.*");
    assertEquals(List.of("failed " + address + " multistream-select no common protocol: refused [/echo/1.0.0]"),
        echo.errLines(), echo::toString);

    Keys.Key otherKey = Keys.write(keys, KeyType.ED25519);
    ChildProcess wrong = processes.secio("dial", address, "--multistream", "--muxer", "yamux", "--ping", "1",
        "--expect-peer", otherKey.peerId());
    assertEquals(SecioCli.EXIT_FAILURE, wrong.awaitExit(), wrong::toString);
    assertEquals(List.of("failed " + address + " remote peer id does not match the expected one: expected "
        + otherKey.peerId() + ", got " + listenKey.peerId()), wrong.errLines(), wrong::toString);

    // Once a later connection is reported, every line of the earlier ones is in.
    Keys.Key lastKey = Keys.write(keys, KeyType.ED25519);
    ChildProcess last = processes.secio("dial", address, "--multistream", "--muxer", "yamux", "--ping", "1",
        "--key", lastKey.path());
    assertEquals(0, last.awaitExit(), last::toString);
    listen.awaitOut("muxer " + lastKey.peerId() + " /yamux/1\\.0\\.0");
    // One line per failed connection: the refused muxer, and the handshake the wrong-peer dialer left
    // (which fails the muxer's negotiation behind it too, unreported).
    List<String> failed = listen.outLines().stream().filter(l -> l.startsWith("failed ")).toList();
    assertEquals(2, failed.size(), listen::toString);
    assertTrue(failed.get(0).matches("failed 127\\.0\\.0\\.1:\\d+ multistream-select .*"), listen::toString);
    // The dialer hung up mid-handshake: closed or reset, as the transport saw it.
    assertTrue(failed.get(1).matches("failed 127\\.0\\.0\\.1:\\d+ connection (closed during handshake|reset.*)"),
        listen::toString);
  }

  @Test
  void dialPingsAndIdentifiesARealJsLibp2pNode() throws Exception {
    Processes.requireJsPeers();
    ChildProcess node = processes.node("libp2p-node.js", "listen", "--key-type", "secp256k1");
    Matcher listening = node.awaitOut("\\{\"event\":\"listening\",\"port\":(\\d+),\"peerId\":\"(\\w+)\"\\}");
    String port = listening.group(1);
    String nodeId = listening.group(2);
    Keys.Key dialKey = Keys.write(keys, KeyType.ED25519);
    ChildProcess dial = processes.secio("dial", "127.0.0.1:" + port, "--multistream", "--muxer", "mplex",
        "--expect-peer", nodeId, "--key", dialKey.path(), "--ping", "3", "--identify");
    assertEquals(0, dial.awaitExit(), dial::toString);
    List<String> out = dial.outLines();
    // js-libp2p-secio speaks v0.1 only.
    assertTrue(out.get(0).matches("secured " + nodeId + " exchange=\\S+ cipher=\\S+ hash=\\S+ version=v0\\.1"),
        dial::toString);
    assertEquals(List.of("muxer " + nodeId + " /mplex/6.7.0", "identify peer " + nodeId,
        "identify agent js-libp2p/0.29.4", "identify protocol-version ipfs/0.1.0"), out.subList(1, 5), dial::toString);
    List<String> protocols = List.of(out.get(5).split(" "));
    assertEquals("identify protocols", protocols.get(0) + " " + protocols.get(1), dial::toString);
    assertTrue(protocols.containsAll(List.of("/ipfs/id/1.0.0", "/ipfs/ping/1.0.0")), dial::toString);
    assertEquals("identify listen-addrs /ip4/127.0.0.1/tcp/" + port, out.get(6), dial::toString);
    assertTrue(out.get(7).matches("identify observed-addr /ip4/127\\.0\\.0\\.1/tcp/\\d+"), dial::toString);
    for (int i = 1; i <= 3; i++) {
      assertTrue(out.get(7 + i).matches("ping " + i + " time=\\d+\\.\\d{3} ms"), dial::toString);
    }
    assertEquals(11, out.size(), dial::toString);
    assertTrue(dial.errLines().isEmpty(), dial::toString);
    node.awaitOut("\\{\"event\":\"connected\",\"remotePeer\":\"" + dialKey.peerId() + "\".*");
  }
}
