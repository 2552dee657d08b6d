package io.secio.libp2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.DuplexChannel;
import io.secio.SecioConfig;
import io.secio.identity.IdentityPublicKey;
import io.secio.identity.KeyType;
import io.secio.streams.StreamChannel;
import io.secio.streams.StreamResetException;
import io.secio.streams.mplex.MplexConfig;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The libp2p rules a hostile peer meets on loopback ({@code docs/STREAMS.md} §10): one inbound ping
 * stream per peer (its newer one resets its older, on the same connection or another), a ping stream flooded by a peer that
 * never reads the echoes ends in a reset at the muxer's bound instead of a queue without end, and an
 * identify record whose key is not the secure channel's (or is missing) fails {@code identify()} with
 * {@link Libp2pException} {@code IDENTIFY_KEY_MISMATCH}, exposing nothing of the record.
 */
class Libp2pStreamRulesTest {
  private static final SecioConfig SERVER = JavaNodes.secio(KeyType.ED25519);
  private static final SecioConfig CLIENT = JavaNodes.secio(KeyType.SECP256K1);
  private static final int PING = PingResponder.PING_SIZE_IN_BYTES;
  @AutoClose
  private static final JavaNodes nodes = new JavaNodes();

  /** A stream's reading end for the tests: its bytes, a future for the first n, and how it ended. */
  private static final class Probe extends ChannelInboundHandlerAdapter {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private int awaited = -1;
    private CompletableFuture<byte[]> reached = new CompletableFuture<>();
    /** The exception the stream's pipeline got (null: closed without one). */
    final CompletableFuture<Throwable> ended = new CompletableFuture<>();

    /** Completes once {@code n} bytes in all came, with them; fails if the stream ends first. */
    synchronized CompletableFuture<byte[]> first(int n) {
      awaited = n;
      reached = new CompletableFuture<>();
      check();
      return reached;
    }

    synchronized int size() {
      return bytes.size();
    }

    private void check() {
      if (awaited >= 0 && bytes.size() >= awaited) {
        reached.complete(Arrays.copyOf(bytes.toByteArray(), awaited));
      }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf buf = (ByteBuf) msg;
      byte[] b = new byte[buf.readableBytes()];
      buf.readBytes(b);
      synchronized (this) {
        bytes.writeBytes(b);
        check();
      }
      buf.release();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ended.complete(cause);
      ctx.close();
    }

    @Override
    public synchronized void channelInactive(ChannelHandlerContext ctx) {
      ended.complete(null);
      reached.completeExceptionally(new IllegalStateException("the stream ended after " + bytes.size() + " bytes"));
      ctx.fireChannelInactive();
    }
  }

  private static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static <T> T get(CompletableFuture<T> future) throws Exception {
    return future.get(JavaNodes.WAIT_MINUTES, TimeUnit.MINUTES);
  }

  /** A plaintext libp2p connection to {@code listener}, proposing both muxers. */
  private static Libp2pSession plaintext(JavaNodes.Listener listener) throws Exception {
    return Libp2pLoopbackTest.get(Libp2p.sessionFuture(nodes.dial(listener.port(),
        Libp2p.insecureClient(Libp2pConfig.builder().muxers(Muxer.MPLEX, Muxer.YAMUX).build()))));
  }

  @ParameterizedTest
  @EnumSource(Muxer.class)
  void aSecondInboundPingStreamResetsTheFirstAndIsServed(Muxer muxer) throws Exception {
    Libp2pConfig config = Libp2pConfig.builder().muxers(muxer).build();
    try (JavaNodes.Listener listener = nodes.listen(() -> Libp2p.insecureServer(config))) {
      Libp2pSession connection = plaintext(listener);
      try {
        Probe first = new Probe();
        StreamChannel a = Libp2pLoopbackTest.get(connection.openStream(Libp2pConfig.PING, first));
        byte[] ping = random(PING, 1);
        a.writeAndFlush(Unpooled.wrappedBuffer(ping));
        assertArrayEquals(ping, get(first.first(PING)), "the first stream is served");

        Probe second = new Probe();
        StreamChannel b = Libp2pLoopbackTest.get(connection.openStream(Libp2pConfig.PING, second));
        assertInstanceOf(StreamResetException.class, get(first.ended), "the older stream is reset");
        assertTrue(a.closeFuture().await(JavaNodes.WAIT_MINUTES, TimeUnit.MINUTES), "and closed");
        byte[] pings = random(2 * PING, 2);
        b.writeAndFlush(Unpooled.wrappedBuffer(pings));
        assertArrayEquals(pings, get(second.first(2 * PING)), "the newer stream is served");
        assertTrue(b.isOpen());
        assertTrue(connection.connection().isActive(), "the rule costs a stream, not the connection");
      } finally {
        connection.connection().close().sync();
      }
    }
  }

  /** A secio libp2p connection as {@code secio} to {@code listener}, proposing {@code muxer}. */
  private static Libp2pSession secured(JavaNodes.Listener listener, SecioConfig secio, Muxer muxer)
      throws Exception {
    return Libp2pLoopbackTest.get(Libp2p.sessionFuture(nodes.dial(listener.port(),
        Libp2p.client(secio, Libp2pConfig.builder().muxers(muxer).build(), SERVER.localPeerId()))));
  }

  /** A ping stream of {@code connection} that has been served one ping. */
  private static StreamChannel servedPingStream(Libp2pSession connection, Probe probe, long seed)
      throws Exception {
    StreamChannel stream = Libp2pLoopbackTest.get(connection.openStream(Libp2pConfig.PING, probe));
    byte[] ping = random(PING, seed);
    stream.writeAndFlush(Unpooled.wrappedBuffer(ping));
    assertArrayEquals(ping, get(probe.first(PING)), "the ping stream is served");
    return stream;
  }

  @ParameterizedTest
  @EnumSource(Muxer.class)
  void aPeersPingStreamOnASecondConnectionResetsTheOneOnItsFirstAndAnotherPeersIsLeftAlone(Muxer muxer)
      throws Exception {
    Libp2pConfig config = Libp2pConfig.builder().muxers(muxer).build();
    try (JavaNodes.Listener listener = nodes.listen(() -> Libp2p.server(SERVER, config))) {
      Libp2pSession first = secured(listener, CLIENT, muxer);
      Libp2pSession other = secured(listener, JavaNodes.otherSecio(KeyType.SECP256K1), muxer);
      Libp2pSession second = secured(listener, CLIENT, muxer);
      try {
        Probe onFirst = new Probe();
        StreamChannel a = servedPingStream(first, onFirst, 1);
        Probe ofOther = new Probe();
        StreamChannel b = servedPingStream(other, ofOther, 2);
        Probe onSecond = new Probe();
        StreamChannel c = servedPingStream(second, onSecond, 3);
        assertInstanceOf(StreamResetException.class, get(onFirst.ended), "the peer's older stream is reset");
        assertTrue(a.closeFuture().await(JavaNodes.WAIT_MINUTES, TimeUnit.MINUTES), "and closed");
        assertTrue(first.connection().isActive(), "the rule costs a stream, not the connection");
        // The other peer's stream still answers after the reset, and so does the newer one.
        byte[] again = random(PING, 4);
        b.writeAndFlush(Unpooled.wrappedBuffer(again));
        assertArrayEquals(again, Arrays.copyOfRange(get(ofOther.first(2 * PING)), PING, 2 * PING));
        c.writeAndFlush(Unpooled.wrappedBuffer(again));
        assertArrayEquals(again, Arrays.copyOfRange(get(onSecond.first(2 * PING)), PING, 2 * PING));
        assertTrue(b.isOpen() && c.isOpen());
      } finally {
        first.connection().close().sync();
        other.connection().close().sync();
        second.connection().close().sync();
      }
    }
  }

  @Test
  void aPingStreamFloodedByAPeerThatNeverReadsIsResetAtTheMuxersBound() throws Exception {
    int bound = 1024 * 1024; // the least mplex allows: one whole message
    Libp2pConfig config = Libp2pConfig.builder().muxers(Muxer.MPLEX)
        .mplex(MplexConfig.builder().maxStreamBuffer(bound).build()).build();
    // Small socket buffers, so what the kernel holds is well under what the flood leaves behind.
    try (JavaNodes.Listener listener = nodes.listen(() -> smallBuffers(Libp2p.insecureServer(config)))) {
      Channel ch = nodes.dial(listener.port(), smallBuffers(Libp2p.insecureClient(config)));
      Libp2pSession connection = Libp2pLoopbackTest.get(Libp2p.sessionFuture(ch));
      try {
        Probe echoes = new Probe();
        StreamChannel stream = Libp2pLoopbackTest.get(connection.openStream(Libp2pConfig.PING, echoes));
        // From here on this side reads nothing of the connection, so the echoes pile up at the listener.
        ch.config().setAutoRead(false);
        int flood = 8 * bound;
        byte[] chunk = random(64 * 1024, 3);
        List<ChannelFuture> writes = new ArrayList<>();
        for (int sent = 0; sent < flood; sent += chunk.length) {
          writes.add(stream.writeAndFlush(Unpooled.wrappedBuffer(chunk)));
        }
        for (ChannelFuture write : writes) {
          assertTrue(write.await(JavaNodes.WAIT_MINUTES, TimeUnit.MINUTES), "hang guard: the listener reads on");
        }
        ch.config().setAutoRead(true);
        CompletableFuture<byte[]> everything = echoes.first(flood);
        CompletableFuture.anyOf(everything, echoes.ended).get(JavaNodes.WAIT_MINUTES, TimeUnit.MINUTES);
        assertFalse(everything.isDone() && !everything.isCompletedExceptionally(),
            "the listener held every echo for a peer that did not read them");
        assertInstanceOf(StreamResetException.class, get(echoes.ended), "the listener reset the stream");
        assertTrue(echoes.size() < flood, echoes.size() + " bytes echoed");
        assertTrue(ch.isActive(), "one stream reset, the connection goes on");
        assertFalse(Libp2pLoopbackTest.get(connection.ping()).isNegative(), "and serves a new ping stream");
      } finally {
        ch.close().sync();
      }
    }
  }

  private static ChannelInitializer<Channel> smallBuffers(io.netty.channel.ChannelHandler libp2p) {
    return new ChannelInitializer<>() {
      @Override
      protected void initChannel(Channel ch) {
        ch.config().setOption(ChannelOption.SO_RCVBUF, 32 * 1024);
        ch.config().setOption(ChannelOption.SO_SNDBUF, 32 * 1024);
        ch.pipeline().addLast(libp2p);
      }
    };
  }

  /** Answers identify with a record carrying {@code key} (null: none) instead of the secure channel's. */
  private static final class ForgedIdentify extends ChannelInboundHandlerAdapter {
    static final String AGENT = "forged-agent/6.6.6";
    private final IdentityPublicKey key;

    ForgedIdentify(IdentityPublicKey key) {
      this.key = key;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      Libp2pConfig says = Libp2pConfig.builder().agentVersion(AGENT).build();
      ctx.writeAndFlush(IdentifyCodec.encode(ctx.alloc(), key, says, ctx.channel().parent().remoteAddress()));
      ((DuplexChannel) ctx.channel()).shutdownOutput();
    }
  }

  static Stream<IdentityPublicKey> forgedKeys() {
    return Stream.of(JavaNodes.otherSecio(KeyType.ED25519).identity().publicKey(),
        CLIENT.identity().publicKey(), null);
  }

  @ParameterizedTest
  @MethodSource("forgedKeys")
  void anIdentifyRecordWithAnotherKeyFailsAndExposesNothing(IdentityPublicKey key) throws Exception {
    try (JavaNodes.Listener listener = nodes.listen(
        HandBuiltNode.serving(SERVER, Libp2pConfig.IDENTIFY, () -> new ForgedIdentify(key)))) {
      Libp2pConfig config = Libp2pConfig.builder().muxers(Muxer.MPLEX).build();
      Channel ch = nodes.dial(listener.port(), Libp2p.client(CLIENT, config, SERVER.localPeerId()));
      try {
        Libp2pSession connection = Libp2pLoopbackTest.get(Libp2p.sessionFuture(ch));
        ExecutionException e = assertThrows(ExecutionException.class,
            () -> Libp2pLoopbackTest.get(connection.identify()));
        Libp2pException failure = assertInstanceOf(Libp2pException.class, e.getCause());
        assertEquals(Libp2pException.Reason.IDENTIFY_KEY_MISMATCH, failure.reason());
        assertFalse(failure.getMessage().contains(ForgedIdentify.AGENT), "nothing of the record in the message");
        ExecutionException again = assertThrows(ExecutionException.class,
            () -> Libp2pLoopbackTest.get(connection.identify()));
        assertEquals(failure, again.getCause(), "asked again: the same failure, no record");
        assertTrue(ch.isActive(), "one stream reset, the connection goes on");
      } finally {
        ch.close().sync();
      }
    }
  }
}
