package io.secio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The whole bound and the share of one source, as a listener's handshakes take and return permits. */
class HandshakeLimiterTest {
  private static InetSocketAddress at(String ip, int port) throws Exception {
    return new InetSocketAddress(InetAddress.getByName(ip), port);
  }

  @Test
  void permitsAreCountedAndAReleaseActsOnce() {
    HandshakeLimiter limiter = HandshakeLimiter.of(1);
    HandshakeLimiter.Permit permit = limiter.tryAcquire(null);
    assertNotNull(permit);
    assertNull(limiter.tryAcquire(null));
    assertEquals(1, limiter.active());
    permit.release();
    assertEquals(0, limiter.active());
    permit.release();
    assertEquals(0, limiter.active(), "a second release gave back a permit it did not hold");
    assertNotNull(limiter.tryAcquire(null));
  }

  @Test
  void oneSourceGetsItsShareAndOthersTheRest() throws Exception {
    HandshakeLimiter limiter = HandshakeLimiter.of(8, 3);
    List<HandshakeLimiter.Permit> flood = new ArrayList<>();
    for (int port = 1; port <= 3; port++) {
      flood.add(assertPermit(limiter.tryAcquire(at("192.0.2.1", port))));
    }
    assertNull(limiter.tryAcquire(at("192.0.2.1", 4)), "a fourth from the same address");
    for (int i = 2; i <= 6; i++) {
      assertPermit(limiter.tryAcquire(at("192.0.2." + i, 1)));
    }
    assertEquals(8, limiter.active());
    assertNull(limiter.tryAcquire(at("192.0.2.99", 1)), "over the whole bound");
    flood.get(0).release();
    assertEquals(7, limiter.active());
    assertPermit(limiter.tryAcquire(at("192.0.2.1", 5)));
    assertNull(limiter.tryAcquire(at("192.0.2.1", 6)));
    assertEquals(8, limiter.active());
  }

  @Test
  void anIpv6HostIsItsSlash64AndAddresslessChannelsShareOneSource() throws Exception {
    HandshakeLimiter limiter = HandshakeLimiter.of(10, 2);
    assertPermit(limiter.tryAcquire(at("2001:db8::1", 1)));
    assertPermit(limiter.tryAcquire(at("2001:db8::ffff:2", 1)));
    assertNull(limiter.tryAcquire(at("2001:db8:0:0:1234::3", 1)), "same /64");
    assertPermit(limiter.tryAcquire(at("2001:db8:0:1::1", 1)));
    assertPermit(limiter.tryAcquire(null));
    assertPermit(limiter.tryAcquire(new SocketAddress() {}));
    assertNull(limiter.tryAcquire(null));
  }

  @Test
  void theBoundsHoldUnderContention() throws Exception {
    HandshakeLimiter limiter = HandshakeLimiter.of(50, 5);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    CountDownLatch done = new CountDownLatch(4000);
    int[] maxSeen = {0};
    try {
      for (int i = 0; i < 4000; i++) {
        InetSocketAddress source = at("198.51.100." + (i % 20), 1);
        pool.execute(() -> {
          HandshakeLimiter.Permit p = limiter.tryAcquire(source);
          if (p != null) {
            synchronized (maxSeen) {
              maxSeen[0] = Math.max(maxSeen[0], limiter.active());
            }
            p.release();
          }
          done.countDown();
        });
      }
      assertEquals(true, done.await(5, TimeUnit.MINUTES));
    } finally {
      pool.shutdownNow();
    }
    assertEquals(0, limiter.active());
    assertEquals(true, maxSeen[0] <= 50, "active " + maxSeen[0]);
  }

  @Test
  void aShareMustFitTheBound() {
    assertThrows(IllegalArgumentException.class, () -> HandshakeLimiter.of(4, 5));
    assertThrows(IllegalArgumentException.class, () -> HandshakeLimiter.of(4, 0));
    assertEquals(64, HandshakeLimiter.of(512).maxPerSource());
  }

  private static HandshakeLimiter.Permit assertPermit(HandshakeLimiter.Permit p) {
    assertNotNull(p, "refused");
    return p;
  }
}
