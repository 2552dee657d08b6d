package io.secio.netty.hostile;

import static io.secio.netty.hostile.HostileConfigs.READ_TIMEOUT;
import static io.secio.netty.hostile.HostileConfigs.WAIT_SECONDS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.secio.HandshakeLimiter;
import io.secio.SecioConfig;
import io.secio.protocol.SecioException.Reason;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Many half-open handshakes at once (peers that connect and say nothing): the bound on concurrent
 * handshakes refuses the excess at once with {@link Reason#TOO_MANY_HANDSHAKES}, sessions already
 * established keep working, and the node takes new handshakes again as soon as the half-open ones
 * close or time out.
 */
class HalfOpenHandshakesTest {
  private static final int BOUND = 8;
  private static final int EXCESS = 40;
  private static final byte[] PING = "ping".getBytes(StandardCharsets.US_ASCII);

  @Test
  void defaultBoundIs512SharedByEveryServerHandlerOfAConfig() {
    SecioConfig config = HostileConfigs.node().build();
    assertEquals(512, SecioConfig.DEFAULT_MAX_CONCURRENT_HANDSHAKES);
    assertEquals(512, config.maxConcurrentHandshakes());
    HandshakeLimiter shared = config.handshakeLimiter();
    assertEquals(512, shared.maxConcurrentHandshakes());
    assertTrue(shared == config.handshakeLimiter(), "one limiter per config");
  }

  @Test
  void excessIsRefusedAtOnceWhileEstablishedSessionsKeepWorking() throws Exception {
    // A long timeout: the half-open peers hold their permits for the whole test.
    SecioConfig config = HostileConfigs.node().handshakeTimeout(Duration.ofSeconds(60)).build();
    // Every peer here dials from 127.0.0.1: its share is the whole bound (FairShareTest covers shares).
    HandshakeLimiter limiter = HandshakeLimiter.of(BOUND, BOUND);
    List<RawPeer> halfOpen = new ArrayList<>();
    try (Listener listener = Listener.builder().limiter(limiter).start(config);
        RawPeer honestWire = RawPeer.dial(listener.address(), READ_TIMEOUT)) {
      Connection established = listener.next(WAIT_SECONDS);
      PeerOnWire honest = PeerOnWire.proposing(honestWire, "AES-128-GCM").handshake();
      established.handshake.get(WAIT_SECONDS, TimeUnit.SECONDS);

      List<Connection> holding = new ArrayList<>();
      for (int i = 0; i < BOUND; i++) {
        halfOpen.add(RawPeer.dial(listener.address(), READ_TIMEOUT));
        holding.add(listener.next(WAIT_SECONDS));
      }
      for (Connection c : holding) {
        // The handshake takes its permit in the event-loop task after the channel is set up.
        c.channel.eventLoop().submit(() -> { }).get(WAIT_SECONDS, TimeUnit.SECONDS);
      }
      assertEquals(BOUND, limiter.active());

      for (int i = 0; i < EXCESS; i++) {
        try (RawPeer excess = RawPeer.dial(listener.address(), READ_TIMEOUT)) {
          Connection refused = listener.next(WAIT_SECONDS);
          // Refused at once for want of a permit (not left to time out: that would be TIMEOUT).
          Outcomes.assertHandshakeRefused(refused, Reason.TOO_MANY_HANDSHAKES);
          excess.awaitEnd();
        }
      }
      assertEquals(BOUND, limiter.active());

      // The established session still answers both ways.
      honestWire.writeRaw(honest.sealedFrame(PING));
      assertTrue(established.app.awaitBytes(PING.length, WAIT_SECONDS));
      established.channel.writeAndFlush(Unpooled.wrappedBuffer(PING));
      assertArrayEquals(PING, honest.readData());

      // The half-open peers go away; their permits come back and a new peer gets through.
      for (RawPeer p : halfOpen) {
        p.close();
      }
      for (Connection c : holding) {
        Outcomes.assertHandshakeRefused(c, Reason.CLOSED);
      }
      assertEquals(0, limiter.active());
      try (RawPeer late = RawPeer.dial(listener.address(), READ_TIMEOUT)) {
        Connection lateConn = listener.next(WAIT_SECONDS);
        PeerOnWire.proposing(late, "AES-128-GCM").handshake();
        assertTrue(lateConn.handshake.get(WAIT_SECONDS, TimeUnit.SECONDS) != null);
      }
    } finally {
      for (RawPeer p : halfOpen) {
        p.close();
      }
    }
  }

  @Test
  void timedOutHalfOpenHandshakesGiveTheirPermitsBack() throws Exception {
    HandshakeLimiter limiter = HandshakeLimiter.of(4, 4);
    List<RawPeer> silent = new ArrayList<>();
    try (Listener listener = Listener.builder().limiter(limiter).start(HostileConfigs.node().build())) {
      List<Connection> holding = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        silent.add(RawPeer.dial(listener.address(), READ_TIMEOUT));
        holding.add(listener.next(WAIT_SECONDS));
      }
      for (Connection c : holding) {
        Outcomes.assertHandshakeRefused(c, Reason.TIMEOUT);
      }
      assertEquals(0, limiter.active());
      // The silent peers are still connected at their end; the node has moved on.
      try (RawPeer next = RawPeer.dial(listener.address(), READ_TIMEOUT)) {
        Connection c = listener.next(WAIT_SECONDS);
        PeerOnWire.proposing(next, "AES-128").handshake();
        assertTrue(c.handshake.get(WAIT_SECONDS, TimeUnit.SECONDS) != null);
      }
    } finally {
      for (RawPeer p : silent) {
        p.close();
      }
    }
  }

  @Test
  void boundFromTheConfigAppliesWithoutAnExplicitLimiter() throws Exception {
    SecioConfig config = HostileConfigs.node().maxConcurrentHandshakes(3)
        .maxConcurrentHandshakesPerSource(3).build();
    List<RawPeer> silent = new ArrayList<>();
    try (Listener listener = Listener.start(config)) {
      for (int i = 0; i < 3; i++) {
        silent.add(RawPeer.dial(listener.address(), READ_TIMEOUT));
        Connection c = listener.next(WAIT_SECONDS);
        c.channel.eventLoop().submit(() -> { }).get(WAIT_SECONDS, TimeUnit.SECONDS);
      }
      try (RawPeer fourth = RawPeer.dial(listener.address(), READ_TIMEOUT)) {
        Outcomes.assertHandshakeRefused(listener.next(WAIT_SECONDS), Reason.TOO_MANY_HANDSHAKES);
      }
    } finally {
      for (RawPeer p : silent) {
        p.close();
      }
    }
  }
}
