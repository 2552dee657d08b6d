package io.secio.libp2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.secio.SecioConfig;
import io.secio.identity.KeyType;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
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

  /** Agrees on identify and says nothing; its stream's end completes {@link #ended}. */
  private static final class SilentIdentify extends ChannelInboundHandlerAdapter {
    static final CompletableFuture<Void> ended = new CompletableFuture<>();

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ReferenceCountUtil.release(msg);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      ended.complete(null);
    }
  }

  @Test
  void aPeerThatNeverSendsItsRecordFailsIdentifyAfterTheDeadline() throws Exception {
    try (JavaNodes.Listener listener = nodes.listen(
        HandBuiltNode.serving(SERVER, Libp2pConfig.IDENTIFY, SilentIdentify::new))) {
      Libp2pConfig config = Libp2pConfig.builder().muxers(Muxer.MPLEX)
          .identifyTimeout(Duration.ofMillis(200)).build();
      Channel ch = nodes.dial(listener.port(), Libp2p.client(CLIENT, config, SERVER.localPeerId()));
      try {
        Libp2pSession connection = Libp2pLoopbackTest.get(Libp2p.sessionFuture(ch));
        ExecutionException e = assertThrows(ExecutionException.class,
            () -> Libp2pLoopbackTest.get(connection.identify()));
        assertEquals(Libp2pException.Reason.IDENTIFY_TIMEOUT,
            assertInstanceOf(Libp2pException.class, e.getCause()).reason());
        SilentIdentify.ended.get(JavaNodes.WAIT_MINUTES, TimeUnit.MINUTES);
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
