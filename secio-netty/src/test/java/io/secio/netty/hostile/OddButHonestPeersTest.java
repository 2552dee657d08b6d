package io.secio.netty.hostile;

import static io.secio.netty.hostile.HostileConfigs.READ_TIMEOUT;
import static io.secio.netty.hostile.HostileConfigs.WAIT_SECONDS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.netty.SecioHandshakeCompletionEvent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Peers that behave strangely but within the protocol must still get through: every byte in its own
 * write, for a whole handshake and a data frame, on either side; the nonce echo and data in one write.
 */
class OddButHonestPeersTest {
  private static final byte[] DATA = "data sent one byte at a time".getBytes(StandardCharsets.US_ASCII);

  @ParameterizedTest
  @ValueSource(strings = {"AES-128-GCM", "AES-128"})
  void dialerSendingOneByteAtATimeCompletesTheHandshake(String cipher) throws Exception {
    ByteGate gate = new ByteGate();
    try (Listener listener = Listener.builder().first(() -> gate).start(honestNode());
        RawPeer wire = RawPeer.dial(listener.address(), READ_TIMEOUT).trickle(gate::awaitByte)) {
      Connection conn = listener.next(WAIT_SECONDS);
      PeerOnWire peer = PeerOnWire.proposing(wire, cipher).handshake();
      byte[] frame = peer.sealedFrame(DATA);
      wire.writeRaw(frame);
      assertEstablished(conn, cipher);
      assertEquals(wire.bytesWritten(), gate.reads(), "every byte in a read of its own");
      assertTrue(conn.app.awaitBytes(DATA.length, WAIT_SECONDS));
      assertArrayEquals(DATA, conn.app.received());
      // And the other way: the listener's application writes, the trickling peer reads.
      conn.channel.writeAndFlush(Unpooled.wrappedBuffer(DATA));
      assertArrayEquals(DATA, peer.readData());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"AES-128-GCM", "AES-128"})
  void listenerSendingOneByteAtATimeCompletesTheDialersHandshake(String cipher) throws Exception {
    try (Dialer dialer = new Dialer()) {
      ByteGate gate = new ByteGate();
      Dialer.Dialled d = dialer.dial(honestNode(),
          Dialect.LIBP2P.peerId(HostileConfigs.peerIdentity().publicKey()), READ_TIMEOUT, gate);
      PeerOnWire peer = PeerOnWire.proposing(d.hostile().trickle(gate::awaitByte), cipher).handshake();
      d.hostile().writeRaw(peer.sealedFrame(DATA));
      assertEstablished(d.client(), cipher);
      assertEquals(d.hostile().bytesWritten(), gate.reads(), "every byte in a read of its own");
      assertTrue(d.client().app.awaitBytes(DATA.length, WAIT_SECONDS));
      assertArrayEquals(DATA, d.client().app.received());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"AES-128-GCM", "AES-128"})
  void echoAndDataInOneWriteAllArrive(String cipher) throws Exception {
    try (Listener listener = Listener.start(honestNode());
        RawPeer wire = RawPeer.dial(listener.address(), READ_TIMEOUT)) {
      Connection conn = listener.next(WAIT_SECONDS);
      PeerOnWire peer = PeerOnWire.proposing(wire, cipher).proposes().sendExchange().readExchange();
      byte[] echo = RawPeer.frame(peer.peer.seal(peer.peer.remoteNonce()));
      wire.writeRaw(Crafted.concat(echo, peer.sealedFrame(DATA), peer.sealedFrame(DATA)));
      peer.readEcho();
      assertEstablished(conn, cipher);
      assertTrue(conn.app.awaitBytes(2 * DATA.length, WAIT_SECONDS));
      assertArrayEquals(Crafted.concat(DATA, DATA), conn.app.received());
    }
  }

  /** A generous timeout: trickling byte by byte on a cold JVM takes seconds, and must not fail. */
  private static SecioConfig honestNode() {
    return HostileConfigs.node().handshakeTimeout(Duration.ofSeconds(60)).build();
  }

  private static void assertEstablished(Connection conn, String cipher) throws Exception {
    SecioSession session = conn.handshake.get(WAIT_SECONDS, TimeUnit.SECONDS);
    assertEquals(cipher, session.cipher().wireName());
    assertTrue(conn.app.awaitCompletion(WAIT_SECONDS));
    List<SecioHandshakeCompletionEvent> events = conn.app.completions();
    assertEquals(1, events.size());
    assertTrue(events.get(0).isSuccess());
  }
}
