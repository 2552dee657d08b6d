package io.secio.netty.hostile;

import static io.secio.netty.hostile.HostileConfigs.READ_TIMEOUT;
import static io.secio.netty.hostile.HostileConfigs.WAIT_SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.HandshakeLimiter;
import io.secio.SecioConfig;
import io.secio.protocol.SecioException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * One source must not lock everyone out: 520 silent connections from 127.0.0.1, more than the whole
 * default bound of 512, take only that source's share of the permits (64) and the rest are refused at
 * once, while an honest dialer from another address (127.0.0.2) completes its handshake during the
 * flood. Real sockets; the default config, with a handshake timeout long enough that the flood holds
 * its permits for the whole test.
 */
class FairShareTest {
  private static final int FLOOD = 520;

  @Test
  void aFloodFromOneAddressLeavesRoomForAnHonestDialerFromAnother() throws Exception {
    SecioConfig config = HostileConfigs.node().handshakeTimeout(Duration.ofMinutes(5)).build();
    HandshakeLimiter limiter = config.handshakeLimiter();
    assertEquals(512, limiter.maxConcurrentHandshakes());
    assertEquals(64, limiter.maxPerSource());
    List<RawPeer> flood = new ArrayList<>();
    try (Listener listener = Listener.start(config)) {
      int refused = 0;
      for (int i = 0; i < FLOOD; i++) {
        flood.add(RawPeer.dial(listener.address(), READ_TIMEOUT));
        Connection c = listener.next(WAIT_SECONDS);
        c.channel.eventLoop().submit(() -> { }).get(WAIT_SECONDS, TimeUnit.SECONDS);
        if (c.handshake.isDone()) {
          assertEquals(SecioException.Reason.TOO_MANY_HANDSHAKES,
              ((SecioException) c.handshake.cause()).reason());
          refused++;
        }
      }
      assertEquals(64, limiter.active(), "the flood's permits");
      assertEquals(FLOOD - 64, refused);

      Socket socket = new Socket();
      socket.bind(new InetSocketAddress("127.0.0.2", 0));
      socket.connect(listener.address(), (int) TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
      try (RawPeer honestWire = RawPeer.wrap(socket, READ_TIMEOUT)) {
        Connection honest = listener.next(WAIT_SECONDS);
        PeerOnWire.proposing(honestWire, "AES-128-GCM").handshake();
        assertNotNull(honest.handshake.get(WAIT_SECONDS, TimeUnit.SECONDS));
      }
      assertTrue(flood.stream().noneMatch(RawPeer::isClosed));
      assertEquals(64, limiter.active(), "the flood still holds its share");
    } finally {
      for (RawPeer p : flood) {
        p.close();
      }
    }
  }
}
