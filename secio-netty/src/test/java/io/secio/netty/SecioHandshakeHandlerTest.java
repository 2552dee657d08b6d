package io.secio.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.Future;
import io.secio.HandshakeLimiter;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.protocol.SecioException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The handshake handler on embedded channels, with real engines on both sides. */
class SecioHandshakeHandlerTest {
  private final SecioConfig clientConfig = TestConfigs.client().build();
  private final HandshakeLimiter limiter = HandshakeLimiter.of(4);
  private final SecioConfig serverConfig = TestConfigs.server().handshakeLimiter(limiter).build();
  private final Recorder clientApp = new Recorder();
  private final Recorder serverApp = new Recorder();

  private EmbeddedPair pair() {
    return pair(Secio.client(clientConfig, serverConfig.localPeerId()));
  }

  private EmbeddedPair pair(ChannelHandler clientSecio) {
    return new EmbeddedPair(
        new ChannelHandler[] {clientSecio, clientApp},
        new ChannelHandler[] {Secio.server(serverConfig), serverApp});
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  private static SecioException.Reason reasonOf(Future<?> f) {
    assertTrue(f.isDone(), "not done");
    assertFalse(f.isSuccess(), "succeeded");
    return assertInstanceOf(SecioException.class, f.cause()).reason();
  }

  private static SecioException.Reason onlyFailure(Recorder app) {
    List<SecioHandshakeCompletionEvent> events = app.completions();
    assertEquals(1, events.size(), events.toString());
    assertFalse(events.get(0).isSuccess());
    return assertInstanceOf(SecioException.class, events.get(0).cause()).reason();
  }

  @Test
  void handshakeCompletesAndTheHandlerBecomesTheCodec() {
    EmbeddedPair p = pair();
    p.pump();
    Future<SecioSession> client = Secio.handshakeFuture(p.client);
    Future<SecioSession> server = Secio.handshakeFuture(p.server);
    assertTrue(client.isSuccess(), String.valueOf(client.cause()));
    assertTrue(server.isSuccess(), String.valueOf(server.cause()));
    assertEquals(serverConfig.localPeerId(), client.getNow().remotePeerId());
    assertEquals(clientConfig.localPeerId(), server.getNow().remotePeerId());
    assertEquals(client.getNow().cipher(), server.getNow().cipher());

    for (Recorder app : List.of(clientApp, serverApp)) {
      List<SecioHandshakeCompletionEvent> events = app.completions();
      assertEquals(1, events.size());
      assertTrue(events.get(0).isSuccess());
    }
    assertSame(client.getNow(), clientApp.completions().get(0).session());
    for (EmbeddedChannel ch : List.of(p.client, p.server)) {
      assertNull(ch.pipeline().get(SecioHandshakeHandler.class));
      assertInstanceOf(SecioFrameCodec.class, ch.pipeline().get(Secio.HANDLER_NAME));
      assertInstanceOf(SecioFrameDecoder.class, ch.pipeline().get(Secio.DECODER_NAME));
    }

    p.client.writeAndFlush(Unpooled.wrappedBuffer(ascii("ping")));
    p.pump();
    p.server.writeAndFlush(Unpooled.wrappedBuffer(ascii("pong")));
    p.pump();
    assertArrayEquals(ascii("ping"), serverApp.received());
    assertArrayEquals(ascii("pong"), clientApp.received());
    p.close();
  }

  @Test
  void proposeIsSentAtOnceByBothSides() {
    EmbeddedPair p = pair();
    ByteBuf clientPropose = p.client.readOutbound();
    ByteBuf serverPropose = p.server.readOutbound();
    assertNotNull(clientPropose);
    assertNotNull(serverPropose);
    assertEquals(clientPropose.readableBytes() - 4, clientPropose.getInt(0));
    assertNull(p.client.readOutbound(), "more than the Propose before hearing from the peer");
    clientPropose.release();
    serverPropose.release();
    p.close();
  }

  @Test
  void writesBeforeCompletionAreSentAfterItInOrder() {
    EmbeddedPair p = pair();
    List<ChannelFuture> writes = new ArrayList<>();
    for (String s : new String[] {"one,", "two,", "three,"}) {
      writes.add(p.client.writeAndFlush(Unpooled.wrappedBuffer(ascii(s))));
    }
    ByteBuf propose = p.client.readOutbound();
    assertNull(p.client.readOutbound(), "application data left before the handshake");
    assertFalse(writes.get(0).isDone());
    p.server.writeInbound(propose);

    p.pump();
    assertTrue(writes.stream().allMatch(ChannelFuture::isSuccess));
    p.client.writeAndFlush(Unpooled.wrappedBuffer(ascii("four")));
    p.pump();
    assertArrayEquals(ascii("one,two,three,four"), serverApp.received());
    p.close();
  }

  @Test
  void applicationFramesInTheSameReadAsTheNonceEchoReachTheApplication() {
    EmbeddedPair p = pair();
    EmbeddedPair.move(p.client, p.server); // client Propose; server answers Propose and Exchange
    EmbeddedPair.move(p.server, p.client); // client answers Exchange and nonce echo
    EmbeddedPair.move(p.client, p.server); // server completes, answers with its nonce echo
    assertTrue(Secio.handshakeFuture(p.server).isSuccess());
    assertFalse(Secio.handshakeFuture(p.client).isDone());
    p.server.writeAndFlush(Unpooled.wrappedBuffer(ascii("right after the echo")));

    List<ByteBuf> outbound = new ArrayList<>();
    for (ByteBuf b; (b = p.server.readOutbound()) != null; ) {
      outbound.add(b);
    }
    assertEquals(2, outbound.size(), "nonce echo then one application frame");
    p.client.writeInbound(Unpooled.wrappedBuffer(outbound.toArray(new ByteBuf[0])));

    assertTrue(Secio.handshakeFuture(p.client).isSuccess());
    assertArrayEquals(ascii("right after the echo"), clientApp.received());
    p.close();
  }

  /**
   * An active channel whose clock moves only when the test advances it, frozen before the handlers are
   * added; so the handshake also starts the way it does when secio is added to a live connection.
   */
  private static EmbeddedChannel withFrozenTime(ChannelHandler... handlers) {
    EmbeddedChannel ch = new EmbeddedChannel();
    ch.freezeTime();
    ch.pipeline().addLast(handlers);
    ch.runPendingTasks();
    ByteBuf propose = ch.readOutbound();
    assertNotNull(propose, "no Propose sent");
    propose.release();
    return ch;
  }

  @Test
  void silentPeerFailsWithTimeoutAfterTheConfiguredTime() {
    SecioConfig config = TestConfigs.client().handshakeTimeout(Duration.ofSeconds(3)).build();
    EmbeddedChannel ch = withFrozenTime(Secio.client(config, serverConfig.localPeerId()), clientApp);
    ChannelFuture queued = ch.write(Unpooled.wrappedBuffer(ascii("never sent")));

    ch.advanceTimeBy(2999, TimeUnit.MILLISECONDS);
    ch.runScheduledPendingTasks();
    assertFalse(Secio.handshakeFuture(ch).isDone(), "timed out early");
    assertTrue(ch.isOpen());

    ch.advanceTimeBy(2, TimeUnit.MILLISECONDS);
    ch.runScheduledPendingTasks();
    assertEquals(SecioException.Reason.TIMEOUT, reasonOf(Secio.handshakeFuture(ch)));
    assertEquals(SecioException.Reason.TIMEOUT, onlyFailure(clientApp));
    assertSame(Secio.handshakeFuture(ch).cause(), queued.cause());
    assertFalse(ch.isOpen());
    assertNull(ch.readOutbound(), "queued data left after the failure");
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void defaultTimeoutIsTenSeconds() {
    EmbeddedChannel ch = withFrozenTime(Secio.client(clientConfig), clientApp);
    ch.advanceTimeBy(9_999, TimeUnit.MILLISECONDS);
    ch.runScheduledPendingTasks();
    assertFalse(Secio.handshakeFuture(ch).isDone());
    ch.advanceTimeBy(1, TimeUnit.MILLISECONDS);
    ch.runScheduledPendingTasks();
    assertEquals(SecioException.Reason.TIMEOUT, reasonOf(Secio.handshakeFuture(ch)));
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void completedHandshakeDoesNotTimeOut() {
    EmbeddedPair p = pair();
    p.pump();
    p.client.advanceTimeBy(1, TimeUnit.HOURS);
    p.client.runScheduledPendingTasks();
    assertTrue(p.client.isOpen());
    assertEquals(1, clientApp.completions().size());
    p.close();
  }

  @Test
  void peerClosingMidHandshakeFailsWithClosed() {
    EmbeddedPair p = pair();
    ChannelFuture queued = p.client.write(Unpooled.wrappedBuffer(ascii("queued")));
    EmbeddedPair.move(p.client, p.server);
    // Half of the server's Propose arrives, then the connection ends.
    ByteBuf serverPropose = p.server.readOutbound();
    p.client.writeInbound(serverPropose.readRetainedSlice(serverPropose.readableBytes() / 2));
    serverPropose.release();
    p.server.releaseOutbound();
    p.client.close();

    assertEquals(SecioException.Reason.CLOSED, reasonOf(Secio.handshakeFuture(p.client)));
    assertEquals(SecioException.Reason.CLOSED, onlyFailure(clientApp));
    assertInstanceOf(SecioException.class, queued.cause());
    p.close();
  }

  @Test
  void expectedPeerMismatchFailsTheClient() {
    PeerId someoneElse = clientConfig.localPeerId();
    EmbeddedPair p = pair(Secio.client(clientConfig, someoneElse));
    p.pump();
    assertEquals(SecioException.Reason.PEER_ID_MISMATCH, reasonOf(Secio.handshakeFuture(p.client)));
    assertFalse(p.client.isOpen());
    assertFalse(Secio.handshakeFuture(p.server).isSuccess());
    p.close();
  }

  @Test
  void oversizedFrameDuringTheHandshakeFailsWithHandshakeMessageTooLong() {
    EmbeddedChannel ch = new EmbeddedChannel(Secio.client(clientConfig), clientApp);
    ch.releaseOutbound();
    // The handshake limit (64 KiB), not the frame limit, holds until the nonce echo is verified.
    ch.writeInbound(Unpooled.buffer().writeInt(clientConfig.maxHandshakeMessageLength() + 1));
    assertEquals(SecioException.Reason.HANDSHAKE_MESSAGE_TOO_LONG, reasonOf(Secio.handshakeFuture(ch)));
    assertEquals(SecioException.Reason.HANDSHAKE_MESSAGE_TOO_LONG, onlyFailure(clientApp));
    assertEquals(List.of(Secio.handshakeFuture(ch).cause()), clientApp.exceptions, "exceptionCaught once");
    assertFalse(ch.isOpen());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void garbageInsteadOfAProposeFailsAsMalformed() {
    EmbeddedChannel ch = new EmbeddedChannel(Secio.client(clientConfig), clientApp);
    ch.releaseOutbound();
    ch.writeInbound(Unpooled.buffer().writeInt(3).writeBytes(new byte[] {(byte) 0xff, 0x01, 0x02}));
    assertEquals(SecioException.Reason.MALFORMED_MESSAGE, reasonOf(Secio.handshakeFuture(ch)));
    assertFalse(ch.isOpen());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void handshakesOverTheBoundAreRefusedAtOnce() {
    HandshakeLimiter one = HandshakeLimiter.of(1);
    SecioConfig bound = serverConfig.toBuilder().handshakeLimiter(one).build();
    EmbeddedChannel first = new EmbeddedChannel(Secio.server(bound), new Recorder());
    assertEquals(1, one.active());
    Recorder refusedApp = new Recorder();
    EmbeddedChannel refused = new EmbeddedChannel(Secio.server(bound), refusedApp);
    assertEquals(SecioException.Reason.TOO_MANY_HANDSHAKES, reasonOf(Secio.handshakeFuture(refused)));
    assertEquals(SecioException.Reason.TOO_MANY_HANDSHAKES, onlyFailure(refusedApp));
    assertFalse(refused.isOpen());
    assertNull(refused.readOutbound(), "a refused channel still sent a Propose");
    assertEquals(1, one.active());

    first.close();
    assertEquals(0, one.active(), "permit not returned on failure");
    EmbeddedChannel next = new EmbeddedChannel(Secio.server(bound), new Recorder());
    assertTrue(next.isOpen());
    assertEquals(1, one.active());
    first.releaseOutbound();
    next.releaseOutbound();
    assertFalse(first.finishAndReleaseAll());
    assertFalse(refused.finishAndReleaseAll());
    next.close();
    assertFalse(next.finishAndReleaseAll());
  }

  @Test
  void permitIsReturnedWhenTheHandshakeCompletes() {
    EmbeddedPair p = pair();
    assertEquals(1, limiter.active());
    p.pump();
    assertTrue(Secio.handshakeFuture(p.server).isSuccess());
    assertEquals(0, limiter.active());
    p.close();
  }

  @Test
  void serverHandlersBuiltFromOneConfigShareOneBound() {
    SecioConfig config = TestConfigs.server().maxConcurrentHandshakes(1).build();
    EmbeddedChannel first = new EmbeddedChannel(Secio.server(config), new Recorder());
    EmbeddedChannel second = new EmbeddedChannel(Secio.server(config), new Recorder());
    assertTrue(Secio.handshakeFuture(first).getNow() == null && first.isOpen());
    assertEquals(SecioException.Reason.TOO_MANY_HANDSHAKES, reasonOf(Secio.handshakeFuture(second)));
    first.close();
    first.releaseOutbound();
    assertFalse(first.finishAndReleaseAll());
    assertFalse(second.finishAndReleaseAll());
  }

  @Test
  void removingTheHandlerMidHandshakeFailsItAndReleasesQueuedWrites() {
    EmbeddedChannel ch = new EmbeddedChannel(Secio.client(clientConfig), clientApp);
    ch.releaseOutbound();
    ChannelFuture queued = ch.write(Unpooled.wrappedBuffer(ascii("queued")));
    ch.pipeline().remove(SecioHandshakeHandler.class);
    assertEquals(SecioException.Reason.CLOSED, reasonOf(Secio.handshakeFuture(ch)));
    assertFalse(queued.isSuccess());
    assertFalse(ch.isOpen());
    assertFalse(ch.finishAndReleaseAll());
  }

  /** The future, the completion event and exceptionCaught each carry the same failure, once. */
  private static void assertOneFailurePath(EmbeddedChannel ch, Recorder app, SecioException.Reason reason) {
    Future<SecioSession> handshake = Secio.handshakeFuture(ch);
    assertEquals(reason, reasonOf(handshake));
    assertEquals(reason, onlyFailure(app));
    assertSame(handshake.cause(), app.completions().get(0).cause());
    assertEquals(List.of(handshake.cause()), app.exceptions, "exceptionCaught exactly once, same cause");
    assertTrue(Secio.session(ch).isEmpty());
    assertFalse(ch.isOpen());
  }

  @Test
  void aTimeoutReachesExceptionCaughtAsWellAsTheFutureAndTheEvent() {
    SecioConfig config = TestConfigs.client().handshakeTimeout(Duration.ofSeconds(1)).build();
    EmbeddedChannel ch = withFrozenTime(Secio.client(config, serverConfig.localPeerId()), clientApp);
    ch.advanceTimeBy(1, TimeUnit.SECONDS);
    ch.runScheduledPendingTasks();
    assertOneFailurePath(ch, clientApp, SecioException.Reason.TIMEOUT);
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void aWrongPeerReachesExceptionCaughtOnBothSides() {
    EmbeddedPair p = pair(Secio.client(clientConfig, clientConfig.localPeerId()));
    p.pump();
    assertOneFailurePath(p.client, clientApp, SecioException.Reason.PEER_ID_MISMATCH);
    // Embedded channels do not carry the hang-up across: the server's end closes here.
    p.server.close();
    assertOneFailurePath(p.server, serverApp, SecioException.Reason.CLOSED);
    p.close();
  }

  @Test
  void aClosedOrRefusedHandshakeReachesExceptionCaught() {
    EmbeddedChannel closed = new EmbeddedChannel(Secio.client(clientConfig), clientApp);
    closed.releaseOutbound();
    closed.close();
    assertOneFailurePath(closed, clientApp, SecioException.Reason.CLOSED);
    assertFalse(closed.finishAndReleaseAll());

    SecioConfig none = serverConfig.toBuilder().handshakeLimiter(HandshakeLimiter.of(1)).build();
    none.handshakeLimiter().tryAcquire(null);
    EmbeddedChannel refused = new EmbeddedChannel(Secio.server(none), serverApp);
    assertOneFailurePath(refused, serverApp, SecioException.Reason.TOO_MANY_HANDSHAKES);
    assertFalse(refused.finishAndReleaseAll());
  }

  @Test
  void aFrameFailureAfterTheHandshakeReachesTheSameExceptionCaught() {
    EmbeddedPair p = pair();
    p.pump();
    p.server.writeAndFlush(Unpooled.wrappedBuffer(ascii("tampered with")));
    ByteBuf frame = p.server.readOutbound();
    frame.setByte(frame.writerIndex() - 1, frame.getByte(frame.writerIndex() - 1) ^ 1);
    p.client.writeInbound(frame);
    assertEquals(1, clientApp.exceptions.size(), clientApp.exceptions.toString());
    assertEquals(SecioException.Reason.AUTHENTICATION_FAILED,
        assertInstanceOf(SecioException.class, clientApp.exceptions.get(0)).reason());
    assertEquals(0, clientApp.received().length, "a bad frame reached the application");
    assertFalse(p.client.isOpen());
    p.close();
  }

  @Test
  void theSessionIsThereOnceTheHandshakeSucceeded() {
    EmbeddedPair p = pair();
    assertTrue(Secio.session(p.client).isEmpty(), "a session before the handshake");
    p.pump();
    assertSame(Secio.handshakeFuture(p.client).getNow(), Secio.session(p.client).orElseThrow());
    assertEquals(serverConfig.localPeerId(), Secio.session(p.client).orElseThrow().remotePeerId());
    assertEquals(clientConfig.localPeerId(), Secio.session(p.server).orElseThrow().remotePeerId());
    p.close();
    EmbeddedChannel plain = new EmbeddedChannel();
    assertThrows(IllegalStateException.class, () -> Secio.session(plain));
    assertFalse(plain.finishAndReleaseAll());
  }

  /** Counts the reads requested of the transport. */
  private static final class ReadCounter extends ChannelOutboundHandlerAdapter {
    int reads;
    int readsAfterCompletion;

    @Override
    public void read(ChannelHandlerContext ctx) {
      reads++;
      if (Secio.session(ctx.channel()).isPresent()) {
        readsAfterCompletion++;
      }
      ctx.read();
    }
  }

  private static EmbeddedChannel withoutAutoRead(ReadCounter counter, ChannelHandler secio, Recorder app)
      throws Exception {
    EmbeddedChannel ch = new EmbeddedChannel(false, false, counter, secio, app);
    ch.config().setAutoRead(false);
    ch.register();
    return ch;
  }

  @Test
  void withoutAutoReadTheHandshakeRequestsItsOwnReads() throws Exception {
    ReadCounter clientReads = new ReadCounter();
    ReadCounter serverReads = new ReadCounter();
    EmbeddedChannel client = withoutAutoRead(
        clientReads, Secio.client(clientConfig, serverConfig.localPeerId()), clientApp);
    EmbeddedChannel server = withoutAutoRead(serverReads, Secio.server(serverConfig), serverApp);
    assertTrue(clientReads.reads > 0, "no read requested for the peer's Propose");
    assertTrue(serverReads.reads > 0, "no read requested for the peer's Propose");

    int before = clientReads.reads;
    EmbeddedPair.move(server, client);
    assertTrue(clientReads.reads > before, "no read requested after handshake input");
    // The application asks for data while the handshake still runs; that request must survive it.
    client.read();
    while (EmbeddedPair.move(client, server) + EmbeddedPair.move(server, client) > 0) {
      // until quiet
    }
    assertTrue(Secio.handshakeFuture(client).isSuccess());
    assertTrue(Secio.handshakeFuture(server).isSuccess());
    assertEquals(1, clientReads.readsAfterCompletion, "the application's read was lost to the handshake");
    assertEquals(0, serverReads.readsAfterCompletion, "a read nobody asked for");
    int afterCompletion = serverReads.reads;
    client.writeAndFlush(Unpooled.wrappedBuffer(ascii("data")));
    EmbeddedPair.move(client, server);
    assertArrayEquals(ascii("data"), serverApp.received());
    assertEquals(afterCompletion, serverReads.reads, "the handler still reads on the application's behalf");
    assertFalse(client.finishAndReleaseAll());
    assertFalse(server.finishAndReleaseAll());
  }
}
