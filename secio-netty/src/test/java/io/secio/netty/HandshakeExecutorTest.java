package io.secio.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.Future;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.frame.Frames;
import io.secio.handshake.ScriptedPeer;
import io.secio.protocol.SecioException.Reason;
import io.secio.protocol.SecioException;
import io.secio.testing.SigningThreads;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The handshake's signing and ECDH handed to an executor, on embedded channels with an executor the
 * test runs by hand: what happens while a step is away (frames wait in order, a timeout or close
 * completes the handshake once, the late result is dropped) and when the executor refuses.
 */
class HandshakeExecutorTest {
  private static final byte[] DATA = "after a delegated handshake".getBytes(StandardCharsets.US_ASCII);

  /** Holds tasks until the test runs them. */
  private static final class HeldTasks implements Executor {
    final ArrayDeque<Runnable> tasks = new ArrayDeque<>();

    @Override
    public void execute(Runnable task) {
      tasks.add(task);
    }

    /** Runs the oldest held task, then the event-loop task it posted back on {@code channel}. */
    void runOne(EmbeddedChannel channel) {
      tasks.remove().run();
      channel.runPendingTasks();
    }
  }

  private final HeldTasks held = new HeldTasks();
  private final SigningThreads serverIdentity = new SigningThreads(TestConfigs.serverIdentity());
  private final SecioConfig clientConfig = TestConfigs.client().build();
  private final Recorder clientApp = new Recorder();
  private final Recorder serverApp = new Recorder();

  private SecioConfig.Builder server() {
    return SecioConfig.builder(serverIdentity).handshakeExecutor(held);
  }

  private EmbeddedPair pair(SecioConfig serverConfig) {
    return new EmbeddedPair(
        new ChannelHandler[] {Secio.client(clientConfig, serverConfig.localPeerId()), clientApp},
        new ChannelHandler[] {Secio.server(serverConfig), serverApp});
  }

  private EmbeddedChannel client;

  /** A server that got a client's Propose: with held tasks, its answer is now away. */
  private EmbeddedChannel awayOnTheClientsPropose(SecioConfig serverConfig) {
    EmbeddedChannel server = new EmbeddedChannel(Secio.server(serverConfig), serverApp);
    server.releaseOutbound();
    client = new EmbeddedChannel(Secio.client(clientConfig), clientApp);
    server.writeInbound((ByteBuf) client.readOutbound());
    return server;
  }

  private void closeClient() {
    client.close();
    assertFalse(client.finishAndReleaseAll());
  }

  private static void assertFailedOnce(EmbeddedChannel ch, Recorder app, Reason reason) {
    Future<SecioSession> handshake = Secio.handshakeFuture(ch);
    assertTrue(handshake.isDone() && !handshake.isSuccess(), "not failed");
    assertEquals(reason, assertInstanceOf(SecioException.class, handshake.cause()).reason());
    assertEquals(1, app.completions().size(), app.events.toString());
    assertEquals(List.of(handshake.cause()), app.exceptions);
    assertFalse(ch.isOpen());
  }

  @Test
  void aDelegatedHandshakeCompletesAndCarriesData() {
    SecioConfig serverConfig = server().build();
    EmbeddedPair p = pair(serverConfig);
    ByteBuf serverPropose = p.server.readOutbound();
    EmbeddedPair.move(p.client, p.server); // client Propose: the server's Propose step goes away
    assertEquals(1, held.tasks.size());
    assertNull(p.server.readOutbound(), "the server answered before its step ran");

    p.client.writeInbound(serverPropose); // the client answers with its Exchange...
    EmbeddedPair.move(p.client, p.server); // ...which waits on the server
    assertEquals(1, held.tasks.size(), "a second step started while the first was away");
    assertTrue(serverIdentity.threads.isEmpty());

    held.runOne(p.server); // the server signs, sends its Exchange, and hands the waiting one on
    assertEquals(1, serverIdentity.threads.size());
    assertEquals(1, held.tasks.size(), "the waiting Exchange was not fed to the engine");
    held.runOne(p.server); // ECDH, then the nonce echo
    p.pump();
    assertTrue(held.tasks.isEmpty());
    assertTrue(Secio.handshakeFuture(p.server).isSuccess(), String.valueOf(Secio.handshakeFuture(p.server).cause()));
    assertTrue(Secio.handshakeFuture(p.client).isSuccess());

    p.client.writeAndFlush(Unpooled.wrappedBuffer(DATA));
    p.pump();
    assertArrayEquals(DATA, serverApp.received());
    p.close();
  }

  private static ByteBuf framed(byte[] payload) {
    return Unpooled.buffer().writeInt(payload.length).writeBytes(payload);
  }

  private static byte[] unframed(ByteBuf frame) {
    try {
      frame.skipBytes(Frames.HEADER_SIZE_IN_BYTES);
      return ByteBufUtil.getBytes(frame);
    } finally {
      frame.release();
    }
  }

  @Test
  void dataAPeerSendsRightBehindItsEchoWhileAStepIsAwayReachesTheApplicationInOrder() throws Exception {
    EmbeddedChannel server = new EmbeddedChannel(Secio.server(server().build()), serverApp);
    ScriptedPeer peer = new ScriptedPeer(TestConfigs.clientIdentity());
    peer.receivePropose(unframed(server.readOutbound()));
    server.writeInbound(framed(peer.propose())); // the server's answer goes away
    server.writeInbound(framed(peer.exchange())); // and waits
    held.runOne(server); // the server's Exchange out; the waiting one goes away in turn
    peer.receiveExchange(unframed(server.readOutbound()));
    // A hasty peer: its echo and then data at once, without waiting for the server's echo.
    server.writeInbound(framed(peer.seal(peer.remoteNonce())));
    server.writeInbound(framed(peer.seal(DATA)));
    assertFalse(Secio.handshakeFuture(server).isDone());
    assertEquals(0, serverApp.received().length);

    held.runOne(server); // ECDH; the echo is verified and the data goes on to the codec
    assertTrue(Secio.handshakeFuture(server).isSuccess(), String.valueOf(Secio.handshakeFuture(server).cause()));
    assertArrayEquals(DATA, serverApp.received());
    assertEquals(1, serverApp.completions().size());
    assertInstanceOf(SecioFrameCodec.class, server.pipeline().get(Secio.HANDLER_NAME));
    server.releaseOutbound();
    assertFalse(server.finishAndReleaseAll());
  }

  @Test
  void aTimeoutWhileAStepIsAwayFailsOnceAndTheLateResultIsDropped() {
    EmbeddedChannel server = new EmbeddedChannel();
    server.freezeTime();
    server.pipeline().addLast(Secio.server(server().handshakeTimeout(Duration.ofSeconds(2)).build()), serverApp);
    server.runPendingTasks();
    server.releaseOutbound();
    client = new EmbeddedChannel(Secio.client(clientConfig), clientApp);
    server.writeInbound((ByteBuf) client.readOutbound());
    assertEquals(1, held.tasks.size());

    server.advanceTimeBy(2, TimeUnit.SECONDS);
    server.runScheduledPendingTasks();
    assertFailedOnce(server, serverApp, Reason.TIMEOUT);

    held.runOne(server); // the step returns after the handshake ended
    assertNull(server.readOutbound(), "an Exchange sent after the timeout");
    assertFailedOnce(server, serverApp, Reason.TIMEOUT);
    assertFalse(server.finishAndReleaseAll());
    closeClient();
  }

  @Test
  void aCloseWhileAStepIsAwayReleasesTheWaitingFrames() {
    EmbeddedChannel server = awayOnTheClientsPropose(server().build());
    server.writeInbound(Unpooled.buffer().writeInt(3).writeBytes(new byte[] {1, 2, 3}));
    assertEquals(1, held.tasks.size());

    server.close();
    assertFailedOnce(server, serverApp, Reason.CLOSED);
    held.runOne(server);
    assertFailedOnce(server, serverApp, Reason.CLOSED);
    assertFalse(server.finishAndReleaseAll());
    closeClient();
  }

  @Test
  void aPeerFloodingFramesWhileAStepIsAwayIsCutOff() {
    EmbeddedChannel server = awayOnTheClientsPropose(server().build());
    for (int i = 0; i < SecioHandshakeHandler.MAX_FRAMES_WAITING; i++) {
      server.writeInbound(Unpooled.buffer().writeInt(1).writeByte(i));
    }
    assertTrue(server.isOpen(), "cut off within the bound");
    server.writeInbound(Unpooled.buffer().writeInt(1).writeByte(9));
    assertFailedOnce(server, serverApp, Reason.MALFORMED_MESSAGE);
    held.runOne(server);
    assertFalse(server.finishAndReleaseAll());
    closeClient();
  }

  @Test
  void anExecutorThatRefusesFailsTheHandshake() {
    RejectedExecutionException refusal = new RejectedExecutionException("shut down");
    SecioConfig config = SecioConfig.builder(serverIdentity)
        .handshakeExecutor(task -> {
          throw refusal;
        })
        .build();
    EmbeddedChannel server = awayOnTheClientsPropose(config);
    assertFailedOnce(server, serverApp, Reason.CLOSED);
    assertEquals(refusal, Secio.handshakeFuture(server).cause().getCause());
    assertEquals(0, config.handshakeLimiter().active(), "permit kept");
    assertFalse(server.finishAndReleaseAll());
    closeClient();
  }
}
