package io.secio.netty.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.HandshakeLimiter;
import io.secio.netty.hostile.Connection;
import io.secio.netty.hostile.HostileConfigs;
import io.secio.netty.hostile.Listener;
import io.secio.netty.hostile.PeerOnWire;
import io.secio.netty.hostile.RawPeer.Death;
import io.secio.netty.hostile.RawPeer;
import io.secio.protocol.SecioException;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Many honest dialers at once, each cut at a random byte of what it sends (in the handshake, in a
 * frame header or body, or after everything) by a FIN, a RST or a half-close. For every connection the
 * listener's completion event fires exactly once; the handshake succeeds exactly when the whole nonce
 * echo got out before the cut (else it fails with CLOSED, never TIMEOUT); the application receives
 * exactly the whole frames sent before the cut (a RST may lose some of them, never reorder or forge
 * them); and every handshake permit comes back. CI runs {@value #CI_CONNECTIONS} per mode; set
 * {@code -Dsecio.faults.connections} and {@code -Dsecio.faults.seed} for longer or other runs.
 */
class FaultInjectionTest {
  static final int CI_CONNECTIONS = 150;
  private static final int CONNECTIONS = Integer.getInteger("secio.faults.connections", CI_CONNECTIONS);
  private static final long SEED = Long.getLong("secio.faults.seed", 20240601L);
  private static final long WAIT_SECONDS = 120;

  /** What one dialer did; {@code end} says how its script ended, for failure messages. */
  record Outcome(Connection listenerSide, Death death, boolean echoSent, byte[] wholeFramesSent, long budget,
      long written, String end) {}

  /**
   * The listener's channels by the dialer's port. A dialer claims its own while its socket is still
   * open: once closed, a later dialer may get the same port.
   */
  private static final class Claims {
    private final Map<Integer, CompletableFuture<Connection>> byPort = new ConcurrentHashMap<>();

    void accepted(Connection c) {
      int port = ((InetSocketAddress) c.channel.remoteAddress()).getPort();
      byPort.computeIfAbsent(port, p -> new CompletableFuture<>()).complete(c);
    }

    Connection claim(int port) throws Exception {
      Connection c = byPort.computeIfAbsent(port, p -> new CompletableFuture<>()).get(WAIT_SECONDS, TimeUnit.SECONDS);
      byPort.remove(port);
      return c;
    }
  }

  private static Outcome dial(InetSocketAddress address, long seed, Claims claims) throws Exception {
    Random r = new Random(seed);
    Death death = Death.values()[r.nextInt(Death.values().length)];
    List<byte[]> frames = new ArrayList<>();
    long total = 400;
    for (int i = 0, n = 1 + r.nextInt(5); i < n; i++) {
      byte[] data = new byte[1 + r.nextInt(20_000)];
      r.nextBytes(data);
      frames.add(data);
      total += data.length + 20;
    }
    // Half the cuts fall in or just after the handshake (some 270 to 290 bytes), half anywhere.
    long budget = r.nextBoolean() ? r.nextInt(300) : (long) (r.nextDouble() * total);
    String cipher = r.nextBoolean() ? "AES-128-GCM" : "AES-256";
    RawPeer wire = RawPeer.dial(address, Duration.ofSeconds(WAIT_SECONDS)).dieAfter(budget, death);
    Connection listenerSide = claims.claim(wire.localAddress().getPort());
    boolean echoSent = false;
    ByteArrayOutputStream whole = new ByteArrayOutputStream();
    String end = "completed";
    try {
      PeerOnWire peer = PeerOnWire.proposing(wire, cipher).proposes().sendExchange().readExchange();
      byte[] echo = RawPeer.frame(peer.peer.seal(peer.peer.remoteNonce()));
      // A frame is out when all its bytes are, even if the cut falls right after its last byte.
      echoSent = sentWhole(wire, echo);
      peer.readEcho();
      for (byte[] data : frames) {
        if (!sentWhole(wire, peer.sealedFrame(data))) {
          break;
        }
        whole.writeBytes(data);
      }
      if (!wire.cut()) {
        wire.die(death);
      }
    } catch (Exception | AssertionError e) {
      // Reading after our own death, or the listener closing on us: the script ends here.
      end = e.toString();
    } finally {
      wire.close();
    }
    return new Outcome(listenerSide, death, echoSent, whole.toByteArray(), budget, wire.bytesWritten(), end);
  }

  private static boolean sentWhole(RawPeer wire, byte[] frame) {
    long before = wire.bytesWritten();
    wire.writeRaw(frame);
    return wire.bytesWritten() == before + frame.length;
  }

  @ParameterizedTest(name = "half-closure allowed: {0}")
  @ValueSource(booleans = {false, true})
  void everyCutEndsCleanly(boolean allowHalfClosure) throws Exception {
    HandshakeLimiter limiter = HandshakeLimiter.of(CONNECTIONS, CONNECTIONS); // all from 127.0.0.1
    ExecutorService dialers = Executors.newFixedThreadPool(32);
    try (Listener listener = Listener.builder().limiter(limiter).allowHalfClosure(allowHalfClosure)
        .start(HostileConfigs.node().handshakeTimeout(Duration.ofSeconds(60)).build())) {
      Claims claims = new Claims();
      List<Future<Outcome>> futures = new ArrayList<>();
      for (int i = 0; i < CONNECTIONS; i++) {
        long seed = SEED * 1_000_003L + i + (allowHalfClosure ? CONNECTIONS : 0);
        futures.add(dialers.submit(() -> dial(listener.address(), seed, claims)));
      }
      for (int i = 0; i < CONNECTIONS; i++) {
        claims.accepted(listener.next(WAIT_SECONDS));
      }
      int established = 0;
      for (int i = 0; i < futures.size(); i++) {
        Outcome o = futures.get(i).get(WAIT_SECONDS, TimeUnit.SECONDS);
        Connection c = o.listenerSide();
        String what = "dialer " + i + " (seed " + SEED + "): " + o;
        try {
          established += check(c, o, allowHalfClosure) ? 1 : 0;
        } catch (AssertionError e) {
          throw new AssertionError(what + ": " + e.getMessage(), e);
        }
      }
      System.out.printf("secio faults: %d dialers cut at random, half-closure %s: %d established first%n",
          CONNECTIONS, allowHalfClosure, established);
    } finally {
      dialers.shutdownNow();
    }
    assertEquals(0, limiter.active(), "handshake permits not all returned");
  }

  /** Asserts one connection's outcome; returns whether its handshake succeeded. */
  private static boolean check(Connection c, Outcome o, boolean allowHalfClosure) throws Exception {
    // With half-closure allowed, a FIN after the handshake is a half-close as far as the listener can
    // tell: the channel stays open for the application to answer (and to close).
    boolean staysOpen = allowHalfClosure && o.echoSent() && o.death() != Death.RST;
    if (staysOpen) {
      assertTrue(c.handshake.await(WAIT_SECONDS, TimeUnit.SECONDS));
      assertTrue(c.app.awaitBytes(o.wholeFramesSent().length, WAIT_SECONDS), "data missing");
      c.channel.eventLoop().submit(() -> { }).get(WAIT_SECONDS, TimeUnit.SECONDS);
    } else {
      c.settle(WAIT_SECONDS);
    }
    assertTrue(c.handshake.isDone());
    assertEquals(1, c.app.completions().size(), "completion events: " + c.app.completions());
    boolean ok = c.handshake.isSuccess();
    if (o.death() != Death.RST) {
      assertEquals(o.echoSent(), ok, "handshake outcome: " + c.handshake.cause());
    }
    if (!ok) {
      SecioException e = assertInstanceOf(SecioException.class, c.handshake.cause());
      assertEquals(SecioException.Reason.CLOSED, e.reason());
    }
    byte[] got = c.app.received();
    if (o.death() == Death.RST) {
      assertArrayEquals(java.util.Arrays.copyOf(o.wholeFramesSent(), got.length), got, "not a prefix");
    } else {
      assertArrayEquals(o.wholeFramesSent(), got);
    }
    List<Throwable> exceptions = c.app.exceptions();
    if (!ok) {
      // A failed handshake reaches exceptionCaught once, with its own cause.
      assertEquals(1, exceptions.stream().filter(t -> t == c.handshake.cause()).count(), exceptions.toString());
    }
    for (Throwable t : exceptions) {
      if (ok || t != c.handshake.cause()) {
        // Only a reset may reach the application: as a SecioException, CONNECTION_FAILED, carrying it.
        SecioException closed = assertInstanceOf(SecioException.class, t, "only a reset may reach the application");
        assertEquals(SecioException.Reason.CONNECTION_FAILED, closed.reason());
        assertInstanceOf(java.io.IOException.class, closed.getCause(), "only a reset may reach the application");
      }
    }
    return ok;
  }
}
