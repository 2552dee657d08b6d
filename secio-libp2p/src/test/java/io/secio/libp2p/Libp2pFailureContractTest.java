package io.secio.libp2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.embedded.EmbeddedChannel;
import io.secio.SecioConfig;
import io.secio.identity.KeyType;
import io.secio.netty.NegotiationCompletionEvent;
import io.secio.netty.SecioHandshakeCompletionEvent;
import io.secio.netty.multistream.MultistreamException;
import io.secio.protocol.SecioException;
import io.secio.streams.yamux.YamuxException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * The README's failure contract on a libp2p connection, as on a plain secio one: every failure
 * reaches the application's handlers behind {@code Libp2p.client}/{@code server} on both sides as
 * the failed step's completion event, one {@code exceptionCaught} with a typed error, and the close;
 * {@link Libp2p#awaitSession} throws each as a {@link Libp2pException}; with no handler of the
 * application's, a failure ends at the session's handler, not at Netty's tail (an {@link
 * EmbeddedChannel} rethrows what reaches its tail).
 */
class Libp2pFailureContractTest {
  private static final SecioConfig SERVER = JavaNodes.secio(KeyType.ED25519);
  private static final SecioConfig CLIENT = JavaNodes.secio(KeyType.SECP256K1);
  @AutoClose
  private static final JavaNodes nodes = new JavaNodes();

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

    /** The one exception heard, once the channel's end has reached this handler. */
    Throwable onlyException() throws InterruptedException {
      assertTrue(inactive.await(JavaNodes.WAIT_MINUTES, TimeUnit.MINUTES), "hang guard");
      assertEquals(1, exceptions.size(), () -> "one exceptionCaught: " + exceptions);
      return exceptions.get(0);
    }

    <T> T first(Class<T> type) {
      return events.stream().filter(type::isInstance).map(type::cast).findFirst().orElseThrow();
    }
  }

  /** A listener whose accepted channels get {@code stack} and a {@link Heard} each. */
  private static Supplier<ChannelHandler> withHeard(ChannelHandler stack, Map<Channel, Heard> heard) {
    return () -> new ChannelInitializer<Channel>() {
      @Override
      protected void initChannel(Channel ch) {
        Heard h = new Heard();
        heard.put(ch, h);
        ch.pipeline().addLast(stack, h);
      }
    };
  }

  private static Channel dial(JavaNodes.Listener listener, ChannelHandler stack, Heard heard) throws Exception {
    return nodes.dial(listener.port(), new ChannelInitializer<Channel>() {
      @Override
      protected void initChannel(Channel ch) {
        ch.pipeline().addLast(stack, heard);
      }
    });
  }

  @Test
  void aWrongPeerIsHeardOnBothSidesAndAwaitSessionThrowsIt() throws Exception {
    Map<Channel, Heard> accepted = new ConcurrentHashMap<>();
    Libp2pConfig config = Libp2pConfig.builder().build();
    try (JavaNodes.Listener listener = nodes.listen(withHeard(Libp2p.server(SERVER, config), accepted))) {
      Heard heard = new Heard();
      Channel ch = dial(listener, Libp2p.client(CLIENT, config, CLIENT.localPeerId()), heard);
      Libp2pException thrown = assertThrows(Libp2pException.class, () -> Libp2p.awaitSession(ch));
      assertEquals(Libp2pException.Reason.HANDSHAKE_FAILED, thrown.reason());
      SecioException cause = assertInstanceOf(SecioException.class, thrown.getCause());
      assertEquals(SecioException.Reason.PEER_ID_MISMATCH, cause.reason());
      assertSame(cause, heard.onlyException());
      assertSame(cause, heard.first(SecioHandshakeCompletionEvent.class).cause(), "the handshake's event");

      Heard server = accepted.get(listener.next());
      assertInstanceOf(SecioException.class, server.onlyException(), "the server hears it too");
      assertFalse(server.first(SecioHandshakeCompletionEvent.class).isSuccess());
    }
  }

  @Test
  void noCommonMuxerIsHeardOnBothSides() throws Exception {
    Map<Channel, Heard> accepted = new ConcurrentHashMap<>();
    try (JavaNodes.Listener listener = nodes.listen(
        withHeard(Libp2p.server(SERVER, Libp2pConfig.builder().muxers(Muxer.MPLEX).build()), accepted))) {
      Heard heard = new Heard();
      Channel ch = dial(listener,
          Libp2p.client(CLIENT, Libp2pConfig.builder().muxers(Muxer.YAMUX).build(), SERVER.localPeerId()), heard);
      Libp2pException thrown = assertThrows(Libp2pException.class, () -> Libp2p.awaitSession(ch));
      assertEquals(Libp2pException.Reason.NEGOTIATION_FAILED, thrown.reason());
      MultistreamException cause = assertInstanceOf(MultistreamException.class, thrown.getCause());
      assertEquals(MultistreamException.Reason.NO_COMMON_PROTOCOL, cause.reason());
      assertSame(cause, heard.onlyException());
      assertTrue(heard.first(SecioHandshakeCompletionEvent.class).isSuccess(), "secio succeeded first");

      Heard server = accepted.get(listener.next());
      assertInstanceOf(MultistreamException.class, server.onlyException(), "the server hears it too");
      assertFalse(server.events.stream().filter(NegotiationCompletionEvent.class::isInstance)
          .map(NegotiationCompletionEvent.class::cast).reduce((a, b) -> b).orElseThrow().isSuccess(),
          "the muxer's negotiation failed");
    }
  }

  /** A multistream-select message: uvarint length, then the line. */
  private static ByteBuf message(String line) {
    byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
    return Unpooled.buffer().writeByte(bytes.length).writeBytes(bytes);
  }

  /** The initiator's side of agreeing on yamux, then a yamux header with version 213. */
  private static void yamuxThenNotYamux(EmbeddedChannel listener) {
    listener.writeInbound(message("/multistream/1.0.0"), message(Muxer.YAMUX.protocolId()));
    listener.writeInbound(Unpooled.wrappedBuffer(new byte[] {(byte) 213, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
    listener.runPendingTasks();
  }

  @Test
  void aMuxerFailureReachesTheApplicationOnce() {
    Heard heard = new Heard();
    EmbeddedChannel listener = new EmbeddedChannel(Libp2p.insecureServer(Libp2pConfig.builder().build()), heard);
    yamuxThenNotYamux(listener);
    listener.checkException();
    assertEquals(1, heard.exceptions.size(), () -> "one exceptionCaught: " + heard.exceptions);
    assertEquals(YamuxException.Reason.BAD_VERSION,
        assertInstanceOf(YamuxException.class, heard.exceptions.get(0)).reason());
    assertFalse(listener.isOpen());
    listener.finishAndReleaseAll();
  }

  @Test
  void withoutAHandlerOfTheApplicationsAFailureEndsAtTheSessionsHandler() {
    EmbeddedChannel listener = new EmbeddedChannel(Libp2p.insecureServer(Libp2pConfig.builder().build()));
    yamuxThenNotYamux(listener);
    listener.checkException(); // nothing reached the tail
    assertFalse(listener.isOpen());
    listener.finishAndReleaseAll();
  }
}
