package io.secio.libp2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.Channel;
import io.secio.SecioConfig;
import io.secio.identity.KeyType;
import io.secio.streams.StreamResetException;
import io.secio.testsupport.Collect;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * {@link Libp2pSession#identify()} has a deadline: a peer that agrees on identify and then never
 * sends its record fails the future with {@code IDENTIFY_TIMEOUT}, its stream is reset, and the
 * connection goes on. The deadline is the config's, 30 s unless set.
 */
class IdentifyTimeoutTest {
  private static final SecioConfig SERVER = JavaNodes.secio(KeyType.ED25519);
  private static final SecioConfig CLIENT = JavaNodes.secio(KeyType.SECP256K1);
  @AutoClose
  private static final JavaNodes nodes = new JavaNodes();

  @Test
  void aPeerThatNeverSendsItsRecordFailsIdentifyAfterTheDeadline() throws Exception {
    // The node agrees on identify and says nothing; its side of the stream records how it ends.
    Collect silent = new Collect();
    try (JavaNodes.Listener listener = nodes.listen(HandBuiltNode.serving(SERVER, Libp2pConfig.IDENTIFY, () -> silent))) {
      Libp2pConfig config = Libp2pConfig.builder().muxers(Muxer.MPLEX)
          .identifyTimeout(Duration.ofMillis(200)).build();
      Channel ch = nodes.dial(listener.port(), Libp2p.client(CLIENT, config, SERVER.localPeerId()));
      try {
        Libp2pSession connection = Libp2pLoopbackTest.get(Libp2p.sessionFuture(ch));
        ExecutionException e = assertThrows(ExecutionException.class,
            () -> Libp2pLoopbackTest.get(connection.identify()));
        assertEquals(Libp2pException.Reason.IDENTIFY_TIMEOUT,
            assertInstanceOf(Libp2pException.class, e.getCause()).reason());
        assertInstanceOf(StreamResetException.class, silent.awaitException(), "the node's stream is reset");
        silent.awaitInactive();
        ExecutionException again = assertThrows(ExecutionException.class,
            () -> Libp2pLoopbackTest.get(connection.identify()));
        assertEquals(e.getCause(), again.getCause(), "requested once: the same outcome after");
        assertTrue(ch.isActive(), "the identify stream reset, the connection goes on");
      } finally {
        ch.close().sync();
      }
    }
  }

  @Test
  void theDeadlineIsThirtySecondsUnlessSetAndMustBePositive() {
    assertEquals(Duration.ofSeconds(30), Libp2pConfig.builder().build().identifyTimeout());
    assertEquals(Libp2pConfig.DEFAULT_IDENTIFY_TIMEOUT, Libp2pConfig.builder().build().identifyTimeout());
    assertEquals(Duration.ofSeconds(3),
        Libp2pConfig.builder().identifyTimeout(Duration.ofSeconds(3)).build().identifyTimeout());
    assertThrows(IllegalArgumentException.class, () -> Libp2pConfig.builder().identifyTimeout(Duration.ZERO));
    assertThrows(IllegalArgumentException.class,
        () -> Libp2pConfig.builder().identifyTimeout(Duration.ofSeconds(-1)));
  }
}
