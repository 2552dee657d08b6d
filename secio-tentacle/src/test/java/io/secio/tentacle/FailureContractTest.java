package io.secio.tentacle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.netty.SecioHandshakeCompletionEvent;
import io.secio.netty.Transports;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.SecioException;
import io.secio.streams.yamux.YamuxException;
import io.secio.testsupport.Echo;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The README's failure contract on a tentacle connection, as on a plain secio one: every failure
 * reaches the application's handlers behind {@code Tentacle.client}/{@code server} on both sides as
 * the failed step's completion event, one {@code exceptionCaught} with a typed error, and the close;
 * {@link Tentacle#awaitSession} throws each as a {@link TentacleException}; and with no handler of
 * the application's, a failure ends at the session's handler, not at Netty's tail (an {@link
 * EmbeddedChannel} rethrows what reaches its tail).
 */
class FailureContractTest {
  private static final Duration HANG_GUARD = Duration.ofMinutes(2);
  private static EventLoopGroup group;

  @BeforeAll
  static void start() {
    group = Transports.best().newEventLoopGroup(2);
  }

  @AfterAll
  static void stop() {
    group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** What the application's handler behind the stack hears. */
  static final class Heard extends ChannelInboundHandlerAdapter {
    final List<Object> events = new CopyOnWriteArrayList<>();
    final List<Throwable> exceptions = new CopyOnWriteArrayList<>();
    final CountDownLatch inactive = new CountDownLatch(1);

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      events.add(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      exceptions.add(cause);
      ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      inactive.countDown();
    }

    SecioHandshakeCompletionEvent handshake() {
      return events.stream().filter(SecioHandshakeCompletionEvent.class::isInstance)
          .map(SecioHandshakeCompletionEvent.class::cast).findFirst().orElseThrow();
    }

    /** The one exception heard, once the channel's end has reached this handler. */
    Throwable onlyException() throws InterruptedException {
      inactive.await();
      assertEquals(1, exceptions.size(), () -> "one exceptionCaught: " + exceptions);
      return exceptions.get(0);
    }
  }

  private static SecioConfig.Builder secio() {
    return SecioConfig.builder(IdentityKeyPair.generate(KeyType.SECP256K1, new SecureRandom())).dialect(Dialect.TENTACLE);
  }

  private static TentacleConfig config() {
    return TentacleConfig.builder()
        .protocol(TentacleProtocol.of(TestProtocols.ECHO, List.of("1"), new Echo()))
        .build();
  }

  private record Accepted(Channel channel, Heard heard) {}

  private static Channel listen(SecioConfig secio, TentacleConfig config, BlockingQueue<Accepted> accepted) {
    return new ServerBootstrap().group(group).channel(Transports.best().serverChannelClass())
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            Heard heard = new Heard();
            ch.pipeline().addLast(Tentacle.server(secio, config), heard);
            accepted.add(new Accepted(ch, heard));
          }
        })
        .bind("127.0.0.1", 0).syncUninterruptibly().channel();
  }

  private static Channel dial(Channel listener, ChannelHandler tentacle, Heard heard) {
    return new Bootstrap().group(group).channel(Transports.best().channelClass())
        .handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(tentacle, heard);
          }
        })
        .connect((InetSocketAddress) listener.localAddress()).syncUninterruptibly().channel();
  }

  @Test
  void aWrongPeerIsHeardOnBothSidesAndAwaitSessionThrowsIt() {
    assertTimeoutPreemptively(HANG_GUARD, () -> {
      SecioConfig server = secio().build();
      BlockingQueue<Accepted> accepted = new LinkedBlockingQueue<>();
      Channel listener = listen(server, config(), accepted);
      try {
        Heard heard = new Heard();
        SecioConfig someoneElse = secio().build();
        Channel client = dial(listener, Tentacle.client(secio().build(), config(), someoneElse.localPeerId()), heard);
        TentacleException thrown = assertThrows(TentacleException.class, () -> Tentacle.awaitSession(client));
        assertEquals(TentacleException.Reason.HANDSHAKE_FAILED, thrown.reason());
        SecioException cause = assertInstanceOf(SecioException.class, thrown.getCause());
        assertEquals(SecioException.Reason.PEER_ID_MISMATCH, cause.reason());
        assertSame(cause, heard.onlyException());
        assertSame(cause, heard.handshake().cause(), "the handshake's event");

        Accepted side = accepted.poll(2, TimeUnit.MINUTES);
        Throwable serverSaw = side.heard().onlyException();
        assertInstanceOf(SecioException.class, serverSaw, "the server hears it too");
        assertSame(serverSaw, side.heard().handshake().cause());
        assertFalse(Tentacle.sessionFuture(side.channel()).isSuccess());
      } finally {
        listener.close().syncUninterruptibly();
      }
    });
  }

  @Test
  void noCommonCipherIsHeardOnBothSides() {
    assertTimeoutPreemptively(HANG_GUARD, () -> {
      BlockingQueue<Accepted> accepted = new LinkedBlockingQueue<>();
      Channel listener = listen(secio().ciphers(List.of(CipherAlgorithm.CHACHA20_POLY1305)).build(), config(), accepted);
      try {
        Heard heard = new Heard();
        Channel client = dial(listener,
            Tentacle.client(secio().ciphers(List.of(CipherAlgorithm.AES_128_GCM)).build(), config()), heard);
        TentacleException thrown = assertThrows(TentacleException.class, () -> Tentacle.awaitSession(client));
        assertEquals(SecioException.Reason.NO_COMMON_ALGORITHMS,
            assertInstanceOf(SecioException.class, thrown.getCause()).reason());
        assertSame(thrown.getCause(), heard.onlyException());
        Accepted side = accepted.poll(2, TimeUnit.MINUTES);
        assertEquals(SecioException.Reason.NO_COMMON_ALGORITHMS,
            assertInstanceOf(SecioException.class, side.heard().onlyException()).reason());
      } finally {
        listener.close().syncUninterruptibly();
      }
    });
  }

  @Test
  void aSecondSessionFromAConnectedKeyIsHeardAfterSecioSucceeded() {
    assertTimeoutPreemptively(HANG_GUARD, () -> {
      SecioConfig server = secio().build();
      BlockingQueue<Accepted> accepted = new LinkedBlockingQueue<>();
      Channel listener = listen(server, config(), accepted);
      try {
        SecioConfig key = secio().build();
        Channel first = dial(listener, Tentacle.client(key, config(), server.localPeerId()), new Heard());
        Tentacle.awaitSession(first);
        Tentacle.awaitSession(accepted.poll(2, TimeUnit.MINUTES).channel());

        dial(listener, Tentacle.client(key, config(), server.localPeerId()), new Heard());
        Accepted second = accepted.poll(2, TimeUnit.MINUTES);
        TentacleException refused = assertThrows(TentacleException.class, () -> Tentacle.awaitSession(second.channel()));
        assertEquals(TentacleException.Reason.DUPLICATE_SESSION, refused.reason());
        assertSame(refused, second.heard().onlyException());
        assertTrue(second.heard().handshake().isSuccess(), "secio succeeded first");
        assertTrue(first.isActive(), "the first session goes on");
        first.close().syncUninterruptibly();
      } finally {
        listener.close().syncUninterruptibly();
      }
    });
  }

  /** A yamux header with version 213: the muxer's BAD_VERSION. */
  private static final byte[] NOT_YAMUX = {(byte) 213, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};

  @Test
  void aMuxerFailureReachesTheApplicationOnce() {
    Heard heard = new Heard();
    EmbeddedChannel listener = new EmbeddedChannel(Tentacle.insecureServer(config()), heard);
    listener.writeInbound(Unpooled.wrappedBuffer(NOT_YAMUX));
    listener.runPendingTasks();
    listener.checkException();
    assertEquals(1, heard.exceptions.size(), () -> "one exceptionCaught: " + heard.exceptions);
    assertEquals(YamuxException.Reason.BAD_VERSION,
        assertInstanceOf(YamuxException.class, heard.exceptions.get(0)).reason());
    assertFalse(listener.isOpen());
    Recorded.written(listener);
    assertFalse(listener.finishAndReleaseAll());
  }

  @Test
  void withoutAHandlerOfTheApplicationsAFailureEndsAtTheSessionsHandler() {
    EmbeddedChannel listener = new EmbeddedChannel(Tentacle.insecureServer(config()));
    listener.writeInbound(Unpooled.wrappedBuffer(NOT_YAMUX));
    listener.runPendingTasks();
    listener.checkException(); // nothing reached the tail
    assertFalse(listener.isOpen());
    Recorded.written(listener);
    assertFalse(listener.finishAndReleaseAll());
  }
}
