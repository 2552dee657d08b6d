package io.secio.netty.hostile;

import static io.secio.netty.hostile.HostileConfigs.READ_TIMEOUT;
import static io.secio.netty.hostile.HostileConfigs.WAIT_SECONDS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.secio.Dialect;
import io.secio.netty.hostile.RawPeer.Death;
import io.secio.protocol.SecioException.Reason;
import io.secio.protocol.SecioException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Peers that die: a FIN or a RST in the middle of the handshake or of a frame, and half-closes. The
 * handshake fails with {@link Reason#CLOSED} (never waits for the timeout), or an established channel
 * closes having delivered only whole frames; the completion event fires once; nothing leaks.
 */
class PeerDeathTest {
  private static final byte[] WHOLE = "a whole frame".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] CUT = "a frame cut in the middle".getBytes(StandardCharsets.US_ASCII);


  /** 0: before anything; 1: after Propose; 2: after Exchange; 3: half-way through the echo. */
  private static void honestUpTo(PeerOnWire p, int step) throws Exception {
    if (step >= 1) {
      p.proposes();
    }
    if (step >= 2) {
      p.sendExchange().readExchange();
    }
    if (step >= 3) {
      byte[] echo = RawPeer.frame(p.peer.seal(p.peer.remoteNonce()));
      p.wire.writeRaw(Arrays.copyOf(echo, echo.length / 2));
    }
  }

  @ParameterizedTest(name = "step {0}")
  @ValueSource(ints = {0, 1, 2, 3})
  void everyDeathMidHandshakeFailsItWithClosed(int step) throws Exception {
    for (Death death : Death.values()) {
      for (boolean allowHalfClosure : new boolean[] {false, true}) {
        try (Listener listener = Listener.builder().allowHalfClosure(allowHalfClosure)
                .start(HostileConfigs.node().build());
            RawPeer wire = RawPeer.dial(listener.address(), READ_TIMEOUT)) {
          Connection conn = listener.next(WAIT_SECONDS);
          honestUpTo(PeerOnWire.proposing(wire, "AES-128-GCM"), step);
          wire.die(death);
          try {
            Outcomes.assertHandshakeRefused(conn, Reason.CLOSED);
          } catch (AssertionError e) {
            throw new AssertionError(death + (allowHalfClosure ? " with" : " without")
                + " half-closure allowed: " + e.getMessage(), e);
          }
        }
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"FIN", "RST"})
  void deathMidFrameDeliversOnlyWholeFrames(Death death) throws Exception {
    try (Listener listener = Listener.start(HostileConfigs.node().build());
        RawPeer wire = RawPeer.dial(listener.address(), READ_TIMEOUT)) {
      Connection conn = listener.next(WAIT_SECONDS);
      PeerOnWire peer = PeerOnWire.proposing(wire, "AES-128-GCM").handshake();
      byte[] whole = peer.sealedFrame(WHOLE);
      byte[] cut = peer.sealedFrame(CUT);
      wire.writeRaw(Crafted.concat(whole, Arrays.copyOf(cut, cut.length - 5)));
      if (death == Death.FIN) {
        // Wait until the whole frame is in, so the FIN cannot overtake it.
        assertTrue(conn.app.awaitBytes(WHOLE.length, WAIT_SECONDS));
      }
      wire.die(death);
      conn.settle(WAIT_SECONDS);
      assertEquals(1, conn.app.completions().size());
      assertTrue(conn.app.completions().get(0).isSuccess());
      byte[] got = conn.app.received();
      if (death == Death.FIN) {
        // A truncated stream looks like a clean close (docs/PROTOCOL.md section 16): no error, whole frames only.
        assertArrayEquals(WHOLE, got);
        assertEquals(List.of(), conn.app.exceptions());
      } else {
        // A reset may discard what the kernel had not handed over yet: a prefix, never the cut frame.
        // The reset reaches the application as a SecioException, CONNECTION_FAILED, carrying it.
        assertArrayEquals(Arrays.copyOf(WHOLE, got.length), got);
        for (Throwable t : conn.app.exceptions()) {
          assertEquals(Reason.CONNECTION_FAILED, assertInstanceOf(SecioException.class, t).reason());
          assertInstanceOf(IOException.class, t.getCause());
        }
      }
    }
  }

  @Test
  void halfCloseAfterDataLetsTheApplicationStillAnswer() throws Exception {
    try (Listener listener = Listener.builder().allowHalfClosure(true).start(HostileConfigs.node().build());
        RawPeer wire = RawPeer.dial(listener.address(), READ_TIMEOUT)) {
      Connection conn = listener.next(WAIT_SECONDS);
      PeerOnWire peer = PeerOnWire.proposing(wire, "AES-128-GCM").handshake();
      wire.writeRaw(peer.sealedFrame(WHOLE));
      wire.shutdownOutput();
      assertTrue(conn.app.awaitBytes(WHOLE.length, WAIT_SECONDS));
      conn.channel.eventLoop().submit(() -> { }).get(WAIT_SECONDS, TimeUnit.SECONDS);
      assertTrue(conn.channel.isOpen(), "half-closure allowed, yet the channel closed");
      conn.channel.writeAndFlush(Unpooled.wrappedBuffer(CUT)).get(WAIT_SECONDS, TimeUnit.SECONDS);
      assertArrayEquals(CUT, peer.readData());
      assertArrayEquals(WHOLE, conn.app.received());
      assertEquals(1, conn.app.completions().size());
      assertEquals(List.of(), conn.app.exceptions());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"FIN", "RST"})
  void listenerDyingMidFrameLeavesTheDialerWithWholeFramesOnly(Death death) throws Exception {
    try (Dialer dialer = new Dialer()) {
      Dialer.Dialled d = dialer.dial(HostileConfigs.node().build(),
          Dialect.LIBP2P.peerId(HostileConfigs.peerIdentity().publicKey()), READ_TIMEOUT);
      PeerOnWire peer = PeerOnWire.proposing(d.hostile(), "AES-256").handshake();
      byte[] whole = peer.sealedFrame(WHOLE);
      byte[] cut = peer.sealedFrame(CUT);
      d.hostile().writeRaw(Crafted.concat(whole, Arrays.copyOf(cut, 9)));
      if (death == Death.FIN) {
        assertTrue(d.client().app.awaitBytes(WHOLE.length, WAIT_SECONDS));
      }
      d.hostile().die(death);
      d.client().settle(WAIT_SECONDS);
      assertEquals(1, d.client().app.completions().size());
      byte[] got = d.client().app.received();
      assertArrayEquals(Arrays.copyOf(WHOLE, got.length), got);
      assertEquals(death == Death.FIN ? WHOLE.length : got.length, got.length);
    }
  }
}
