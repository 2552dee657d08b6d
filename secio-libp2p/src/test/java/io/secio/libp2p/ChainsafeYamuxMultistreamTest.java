package io.secio.libp2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.secio.netty.multistream.MultistreamException;
import io.secio.streams.StreamChannel;
import io.secio.streams.yamux.NodePeer;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * yamux with the libp2p profile behind multistream-select against the real
 * {@code @chainsafe/libp2p-yamux} 7.0.4 and {@code @libp2p/multistream-select} 6.0.29, over plaintext
 * loopback TCP ({@code docs/STREAMS.md} §10), run by secio-streams' {@code
 * src/test/js/yamux-multistream-peer.js}. Both directions: multistream-select agrees on {@code
 * /yamux/1.0.0} on the raw connection ({@link Libp2p#insecureClient} / {@link Libp2p#insecureServer}
 * here), then every stream negotiates {@code /echo/1.0.0} by multistream-select too; 4 streams of 2
 * MiB opened each way at once, every byte checked by SHA-256, half-close each way; a protocol the
 * other side does not serve answered {@code na} each way.
 */
class ChainsafeYamuxMultistreamTest {
  private static final String SCRIPT = "yamux-multistream-peer.js";
  private static final int STREAMS = 4;
  private static final int BYTES = 2 * 1024 * 1024;
  private static final Libp2pConfig CONFIG = Libp2pConfig.builder().muxers(Muxer.YAMUX)
      .protocol(EchoStream.PROTOCOL, new EchoStream()).build();
  @BeforeEach
  void requireNode() {
    NodePeer.requireInstalled("@chainsafe/libp2p-yamux", "@libp2p/multistream-select");
  }

  /** Byte j of seed s, as the script makes them: (j * 131 + s) mod 256. */
  private static byte[] pattern(int n, int seed) {
    byte[] b = new byte[n];
    for (int j = 0; j < n; j++) {
      b[j] = (byte) (j * 131 + seed);
    }
    return b;
  }

  private static String sha256(byte[] data) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
  }

  @Test
  void javaDialsNode() throws Exception {
    try (JavaNodes nodes = new JavaNodes(); NodePeer peer = NodePeer.listen(SCRIPT, "chainsafe yamux listener")) {
      Channel ch = nodes.dial(peer.port(), Libp2p.insecureClient(CONFIG));
      try {
        exchange(ch, peer);
      } finally {
        ch.close().sync();
      }
    }
  }

  @Test
  void nodeDialsJava() throws Exception {
    try (JavaNodes nodes = new JavaNodes();
        JavaNodes.Listener listener = nodes.listen(() -> Libp2p.insecureServer(CONFIG));
        NodePeer peer = NodePeer.dial(SCRIPT, "chainsafe yamux dialer", listener.port())) {
      Channel ch = listener.next();
      try {
        exchange(ch, peer);
      } finally {
        ch.close().sync();
      }
    }
  }

  /** The muxer agreed on both sides, then streams each way: Java's first, then the peer's. */
  private static void exchange(Channel ch, NodePeer peer) throws Exception {
    Libp2pSession connection = Libp2pLoopbackTest.get(Libp2p.sessionFuture(ch));
    assertEquals(Muxer.YAMUX, connection.muxer());
    assertEquals(Muxer.YAMUX.protocolId(), peer.next("muxer").get("protocol").getAsString());
    javaOpens(connection, peer);
    peerOpens(peer);
    assertTrue(ch.isActive(), "the connection outlives its streams");
  }

  private static void javaOpens(Libp2pSession connection, NodePeer peer) throws Exception {
    List<byte[]> sent = new ArrayList<>();
    List<Received> echoes = new ArrayList<>();
    for (int i = 0; i < STREAMS; i++) {
      byte[] data = pattern(BYTES + i, i);
      Received received = new Received();
      StreamChannel stream = Libp2pLoopbackTest.get(connection.openStream(EchoStream.PROTOCOL, received));
      stream.write(Unpooled.wrappedBuffer(data));
      stream.flush();
      stream.shutdownOutput();
      sent.add(data);
      echoes.add(received);
    }
    List<String> digests = new ArrayList<>();
    for (int i = 0; i < STREAMS; i++) {
      assertArrayEquals(sent.get(i), echoes.get(i).ended.get(NodePeer.WAIT_MINUTES, TimeUnit.MINUTES),
          "stream " + i + "'s echo");
      digests.add(sha256(sent.get(i)));
    }
    List<String> heard = new ArrayList<>();
    for (int i = 0; i < STREAMS; i++) {
      JsonObject inbound = peer.next("inbound");
      assertEquals(EchoStream.PROTOCOL, inbound.get("protocol").getAsString());
      assertEquals("fin", inbound.get("end").getAsString(), "our half-close reached the peer");
      heard.add(inbound.get("sha256").getAsString());
    }
    assertEquals(digests.stream().sorted().toList(), heard.stream().sorted().toList(), "what the peer read");

    ExecutionException refused = assertThrows(ExecutionException.class,
        () -> Libp2pLoopbackTest.get(connection.openStream("/not/served/1.0.0", new Received())));
    assertEquals(MultistreamException.Reason.NO_COMMON_PROTOCOL,
        assertInstanceOf(MultistreamException.class, refused.getCause()).reason());
  }

  private static void peerOpens(NodePeer peer) throws Exception {
    for (int i = 0; i < STREAMS; i++) {
      peer.send("{\"cmd\":\"open\",\"tag\":\"s" + i + "\",\"protocol\":\"" + EchoStream.PROTOCOL + "\",\"bytes\":"
          + (BYTES + 100 + i) + ",\"seed\":" + (50 + i) + "}");
    }
    Map<String, JsonObject> echoes = new HashMap<>();
    for (int i = 0; i < STREAMS; i++) {
      JsonObject echo = peer.next("echo");
      echoes.put(echo.get("tag").getAsString(), echo);
    }
    for (int i = 0; i < STREAMS; i++) {
      JsonObject echo = echoes.get("s" + i);
      assertEquals(BYTES + 100 + i, echo.get("bytes").getAsInt(), "stream " + i);
      assertEquals(sha256(pattern(BYTES + 100 + i, 50 + i)), echo.get("sha256").getAsString(), "stream " + i);
    }
    peer.send("{\"cmd\":\"open\",\"tag\":\"unknown\",\"protocol\":\"/not/served/1.0.0\",\"bytes\":1,\"seed\":0}");
    assertEquals("unknown", peer.next("refused").get("tag").getAsString(), "answered na here");
  }
}
