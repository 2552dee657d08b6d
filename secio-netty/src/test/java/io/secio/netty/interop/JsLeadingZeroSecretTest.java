package io.secio.netty.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonObject;
import io.netty.channel.EventLoopGroup;
import io.secio.SecioConfig;
import io.secio.identity.KeyType;
import io.secio.netty.interop.JavaNode.Accepted;
import io.secio.netty.interop.JavaNode.EchoServer;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.testing.TestIdentities;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A P-256 shared secret that starts with a zero byte (about 1 handshake in 256) must work with the js
 * peer: an implementation that strips leading zeros, or pads them differently, derives other keys and
 * fails exactly then. Node's ECDH keeps the zeros (the js peer reports {@code secretBytes} 32 always),
 * so js dials the Java listener in batches until such a handshake has completed and echoed data.
 */
class JsLeadingZeroSecretTest {
  private static final int BATCH = 100;
  /** Enough for the interop run's 300 handshakes on its own; the first leading zero needs ~256. */
  private static final int MIN_HANDSHAKES = 300;
  /** Missing a 1-in-256 event this long has a probability of about 2e-7: something is wrong. */
  private static final int MAX_HANDSHAKES = 4000;
  private static final int ECHO_BYTES = 1000;

  private static EventLoopGroup group;

  @BeforeAll
  static void startJavaSide() {
    group = JavaNode.TRANSPORT.newEventLoopGroup(2);
  }

  @BeforeEach
  void requireJsPeer() {
    JsPeer.requireInstalled();
  }

  @AfterAll
  static void stopJavaSide() {
    if (group != null) {
      group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  @Test
  void p256SecretsWithALeadingZeroByteWork() throws Exception {
    SecioConfig config = SecioConfig.builder(TestIdentities.of(KeyType.SECP256K1))
        .exchanges(List.of(ExchangeAlgorithm.P_256))
        .build();
    long t0 = System.nanoTime();
    int handshakes = 0;
    int leadingZero = 0;
    try (EchoServer server = new EchoServer(group, config)) {
      while (handshakes < MIN_HANDSHAKES || leadingZero == 0) {
        if (handshakes >= MAX_HANDSHAKES) {
          fail("no P-256 secret with a leading zero byte in " + handshakes + " handshakes (expected 1 in 256)");
        }
        try (JsPeer dialer = JsPeer.dial(server.port(), "secp256k1", "--exchanges", "P-256",
            "--count", Integer.toString(BATCH), "--send-bytes", Integer.toString(ECHO_BYTES),
            "--expect-peer", config.localPeerId().toBase58())) {
          for (int i = 0; i < BATCH; i++) {
            JsonObject secured = dialer.next("secured");
            assertEquals(ECHO_BYTES, dialer.next("echoed").get("bytes").getAsInt(), "js echo after " + secured);
            Accepted accepted = server.next();
            Handshakes.check(accepted.session(), secured); // also: the js secret is 32 bytes
            assertEquals(ECHO_BYTES, accepted.echoedWhenClosed(), "Java echo after " + secured);
            if (secured.get("secretLeadingZero").getAsBoolean()) {
              leadingZero++;
            }
            handshakes++;
          }
          dialer.assertExitedCleanly();
        }
      }
    }
    System.out.printf("JsLeadingZeroSecretTest: %d P-256 handshakes js -> Java in %.1f s, %d with a leading zero"
            + " byte in the secret, each echoed %d bytes; js secrets with a leading zero byte (this JVM so far): %s%n",
        handshakes, (System.nanoTime() - t0) / 1e9, leadingZero, ECHO_BYTES, Handshakes.secretSummary());
  }
}
