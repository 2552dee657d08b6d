package io.secio.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.util.concurrent.Future;
import io.secio.PeerId;
import io.secio.PeerVerifier;
import io.secio.SecioConfig;
import io.secio.SecioMode;
import io.secio.SecioSession;
import io.secio.identity.KeyType;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.SecioException;
import io.secio.testing.SigningThreads;
import io.secio.testing.TestIdentities;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Two Java nodes over loopback TCP: a secio echo server and a client, on every available transport. */
class LoopbackTest {
  private static final int[] SIZES = {1, 1000, 64 * 1024 + 7, 3 * 1024 * 1024 + 5};
  private static final long WAIT_SECONDS = 300;
  private static final Map<Transports, EventLoopGroup> GROUPS = new EnumMap<>(Transports.class);

  static List<Transports> transports() {
    List<Transports> available = new ArrayList<>();
    for (Transports t : Transports.values()) {
      if (t.isAvailable()) {
        available.add(t);
      }
    }
    return available;
  }

  static Stream<Arguments> everyModeAndCipher() {
    List<Arguments> args = new ArrayList<>();
    for (Transports transport : transports()) {
      for (SecioMode mode : SecioMode.values()) {
        for (CipherAlgorithm cipher : mode.ciphers()) {
          args.add(Arguments.of(transport, mode, cipher));
        }
      }
    }
    return args.stream();
  }

  private static synchronized EventLoopGroup group(Transports transport) {
    return GROUPS.computeIfAbsent(transport, t -> t.newEventLoopGroup(2));
  }

  @AfterAll
  static void shutDown() {
    for (EventLoopGroup group : GROUPS.values()) {
      group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }
    GROUPS.clear();
  }

  /** Echoes every plaintext byte back; reads on its own when auto-read is off. */
  static final class Echo extends ChannelInboundHandlerAdapter {
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof SecioHandshakeCompletionEvent && !ctx.channel().config().isAutoRead()) {
        ctx.read();
      }
      ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ctx.write(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      ctx.flush();
      if (!ctx.channel().config().isAutoRead()) {
        ctx.read();
      }
    }
  }

  /** Collects what the client receives until an expected count of bytes has arrived. */
  private static final class Collector extends ChannelInboundHandlerAdapter {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private CompletableFuture<byte[]> waiting;
    private int expected;

    synchronized CompletableFuture<byte[]> expect(int count) {
      bytes.reset();
      expected = count;
      waiting = new CompletableFuture<>();
      return waiting;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof SecioHandshakeCompletionEvent && !ctx.channel().config().isAutoRead()) {
        ctx.read();
      }
    }

    @Override
    public synchronized void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf buf = (ByteBuf) msg;
      try {
        buf.readBytes(bytes, buf.readableBytes());
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      } finally {
        buf.release();
      }
      if (waiting != null && bytes.size() >= expected) {
        waiting.complete(bytes.toByteArray());
      }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      if (!ctx.channel().config().isAutoRead()) {
        ctx.read();
      }
    }

    @Override
    public synchronized void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      if (waiting != null) {
        waiting.completeExceptionally(cause);
      }
      ctx.close();
    }
  }

  /** A listening secio echo server; the handshake futures of its accepted channels, in order. */
  private static final class EchoServer implements AutoCloseable {
    final Channel listener;
    final BlockingQueue<Future<SecioSession>> handshakes = new LinkedBlockingQueue<>();

    EchoServer(Transports transport, SecioConfig config, boolean autoRead) {
      listener = new ServerBootstrap()
          .group(group(transport))
          .channel(transport.serverChannelClass())
          .childOption(ChannelOption.AUTO_READ, autoRead)
          .childHandler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              ch.pipeline().addLast(Secio.server(config), new Echo());
              handshakes.add(Secio.handshakeFuture(ch));
            }
          })
          .bind(new InetSocketAddress("127.0.0.1", 0))
          .syncUninterruptibly()
          .channel();
    }

    @Override
    public void close() {
      listener.close().syncUninterruptibly();
    }
  }

  private static Channel connect(
      Transports transport, EchoServer server, ChannelHandler secio, ChannelHandler app, boolean autoRead) {
    return new Bootstrap()
        .group(group(transport))
        .channel(transport.channelClass())
        .option(ChannelOption.AUTO_READ, autoRead)
        .handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(secio, app);
          }
        })
        .connect(server.listener.localAddress())
        .syncUninterruptibly()
        .channel();
  }

  private static void echoEverySize(Channel ch, Collector collector, long seed) throws Exception {
    Random random = new Random(seed);
    for (int size : SIZES) {
      byte[] data = new byte[size];
      random.nextBytes(data);
      CompletableFuture<byte[]> echoed = collector.expect(size);
      ch.writeAndFlush(Unpooled.wrappedBuffer(data));
      assertArrayEquals(data, echoed.get(WAIT_SECONDS, TimeUnit.SECONDS), "echo of " + size + " bytes");
    }
  }

  @ParameterizedTest(name = "{0} {1} {2}")
  @MethodSource("everyModeAndCipher")
  void echoesByteExactInEveryModeAndCipher(Transports transport, SecioMode mode, CipherAlgorithm cipher)
      throws Exception {
    SecioConfig serverConfig = TestConfigs.server().mode(mode).ciphers(List.of(cipher)).build();
    SecioConfig clientConfig = TestConfigs.client().mode(mode).ciphers(List.of(cipher)).build();
    try (EchoServer server = new EchoServer(transport, serverConfig, true)) {
      Collector collector = new Collector();
      Channel ch = connect(transport, server,
          Secio.client(clientConfig, serverConfig.localPeerId()), collector, true);
      try {
        SecioSession session = Secio.handshakeFuture(ch).get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertEquals(cipher, session.cipher());
        assertEquals(cipher.version(), session.version());
        assertEquals(serverConfig.localPeerId(), session.remotePeerId());
        SecioSession serverSession = server.handshakes.poll(WAIT_SECONDS, TimeUnit.SECONDS)
            .get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertEquals(clientConfig.localPeerId(), serverSession.remotePeerId());
        assertEquals(cipher, serverSession.cipher());
        echoEverySize(ch, collector, cipher.ordinal() * 31L + mode.ordinal());
      } finally {
        ch.close().syncUninterruptibly();
      }
    }
  }

  @ParameterizedTest
  @MethodSource("transports")
  void bridgeDefaultsNegotiateAeadBetweenTwoJavaNodes(Transports transport) throws Exception {
    SecioConfig serverConfig = TestConfigs.server().build();
    try (EchoServer server = new EchoServer(transport, serverConfig, true)) {
      Collector collector = new Collector();
      Channel ch = connect(transport, server,
          Secio.client(TestConfigs.client().build(), serverConfig.localPeerId()), collector, true);
      try {
        SecioSession session = Secio.handshakeFuture(ch).get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertTrue(session.cipher().isAead(), session.toString());
        echoEverySize(ch, collector, 99);
      } finally {
        ch.close().syncUninterruptibly();
      }
    }
  }

  @ParameterizedTest
  @MethodSource("transports")
  void handshakeAndEchoWorkWithoutAutoRead(Transports transport) throws Exception {
    SecioConfig serverConfig = TestConfigs.server().build();
    try (EchoServer server = new EchoServer(transport, serverConfig, false)) {
      Collector collector = new Collector();
      Channel ch = connect(transport, server,
          Secio.client(TestConfigs.client().build(), serverConfig.localPeerId()), collector, false);
      try {
        Secio.handshakeFuture(ch).get(WAIT_SECONDS, TimeUnit.SECONDS);
        echoEverySize(ch, collector, 7);
      } finally {
        ch.close().syncUninterruptibly();
      }
    }
  }

  @ParameterizedTest
  @MethodSource("transports")
  void expectedPeerMismatchFailsTheClientsHandshake(Transports transport) throws Exception {
    SecioConfig serverConfig = TestConfigs.server().build();
    SecioConfig clientConfig = TestConfigs.client().build();
    PeerId notTheServer = clientConfig.localPeerId();
    try (EchoServer server = new EchoServer(transport, serverConfig, true)) {
      Channel ch = connect(transport, server, Secio.client(clientConfig, notTheServer), new Collector(), true);
      Future<SecioSession> handshake = Secio.handshakeFuture(ch);
      assertTrue(handshake.await(WAIT_SECONDS, TimeUnit.SECONDS));
      SecioException cause = assertInstanceOf(SecioException.class, handshake.cause());
      assertEquals(SecioException.Reason.PEER_ID_MISMATCH, cause.reason());
      assertTrue(ch.closeFuture().await(WAIT_SECONDS, TimeUnit.SECONDS), "client channel left open");
      Future<SecioSession> serverSide = server.handshakes.poll(WAIT_SECONDS, TimeUnit.SECONDS);
      assertTrue(serverSide.await(WAIT_SECONDS, TimeUnit.SECONDS));
      assertTrue(serverSide.cause() instanceof SecioException, String.valueOf(serverSide.cause()));
    }
  }

  @ParameterizedTest
  @MethodSource("transports")
  void aServerWithAnAllowListServesListedPeersAndRefusesOthersBeforeSigning(Transports transport)
      throws Exception {
    SigningThreads serverIdentity = new SigningThreads(TestConfigs.serverIdentity());
    SecioConfig listed = TestConfigs.client().build();
    SecioConfig stranger = SecioConfig.builder(TestIdentities.of(KeyType.SECP256K1)).build();
    SecioConfig serverConfig = SecioConfig.builder(serverIdentity)
        .peerVerifier(PeerVerifier.allowList(List.of(listed.localPeerId())))
        .build();
    try (EchoServer server = new EchoServer(transport, serverConfig, true)) {
      Collector collector = new Collector();
      Channel ch = connect(transport, server, Secio.client(listed, serverConfig.localPeerId()), collector, true);
      try {
        assertEquals(serverConfig.localPeerId(),
            Secio.handshakeFuture(ch).get(WAIT_SECONDS, TimeUnit.SECONDS).remotePeerId());
        echoEverySize(ch, collector, 3);
      } finally {
        ch.close().syncUninterruptibly();
      }
      server.handshakes.poll(WAIT_SECONDS, TimeUnit.SECONDS).get(WAIT_SECONDS, TimeUnit.SECONDS);
      assertEquals(1, serverIdentity.threads.size());

      Channel refused = connect(transport, server,
          Secio.client(stranger, serverConfig.localPeerId()), new Collector(), true);
      Future<SecioSession> serverSide = server.handshakes.poll(WAIT_SECONDS, TimeUnit.SECONDS);
      assertTrue(serverSide.await(WAIT_SECONDS, TimeUnit.SECONDS));
      assertEquals(SecioException.Reason.PEER_REFUSED,
          assertInstanceOf(SecioException.class, serverSide.cause()).reason());
      Future<SecioSession> clientSide = Secio.handshakeFuture(refused);
      assertTrue(clientSide.await(WAIT_SECONDS, TimeUnit.SECONDS));
      assertEquals(SecioException.Reason.CLOSED,
          assertInstanceOf(SecioException.class, clientSide.cause()).reason(), "the server hung up");
      assertEquals(1, serverIdentity.threads.size(), "the server signed for a refused peer");
      assertTrue(refused.closeFuture().await(WAIT_SECONDS, TimeUnit.SECONDS));
    }
  }

  @ParameterizedTest(name = "{0}, handshake executor: {1}")
  @MethodSource("transportsWithAndWithoutExecutor")
  void handshakesSignWhereTheConfigSays(Transports transport, boolean delegated) throws Exception {
    int connections = 8;
    ExecutorService pool = Executors.newFixedThreadPool(2, r -> new Thread(r, "handshake-worker"));
    try {
      SigningThreads serverIdentity = new SigningThreads(TestConfigs.serverIdentity());
      SigningThreads clientIdentity = new SigningThreads(TestConfigs.clientIdentity());
      SecioConfig serverConfig = SecioConfig.builder(serverIdentity)
          .handshakeExecutor(delegated ? pool : null).build();
      SecioConfig clientConfig = SecioConfig.builder(clientIdentity)
          .handshakeExecutor(delegated ? pool : null).build();
      try (EchoServer server = new EchoServer(transport, serverConfig, true)) {
        List<Channel> channels = new ArrayList<>();
        List<Collector> collectors = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
          Collector collector = new Collector();
          collectors.add(collector);
          channels.add(connect(transport, server,
              Secio.client(clientConfig, serverConfig.localPeerId()), collector, true));
        }
        for (int i = 0; i < connections; i++) {
          Secio.handshakeFuture(channels.get(i)).get(WAIT_SECONDS, TimeUnit.SECONDS);
          echoEverySize(channels.get(i), collectors.get(i), i);
          channels.get(i).close().syncUninterruptibly();
        }
      }
      List<String> threads = new ArrayList<>(serverIdentity.threads);
      threads.addAll(clientIdentity.threads);
      assertEquals(2 * connections, threads.size(), threads.toString());
      for (String thread : threads) {
        assertEquals(delegated, thread.equals("handshake-worker"), "signed on " + thread);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  static Stream<Arguments> transportsWithAndWithoutExecutor() {
    return transports().stream().flatMap(t -> Stream.of(Arguments.of(t, false), Arguments.of(t, true)));
  }

  @ParameterizedTest
  @EnumSource(Transports.class)
  void transportAvailabilityMatchesTheNativeLibrary(Transports transport) {
    if (transport == Transports.EPOLL) {
      assertEquals(Epoll.isAvailable(), transport.isAvailable());
    } else {
      assertTrue(transport.isAvailable());
    }
  }

  @Test
  void bestTransportIsEpollWhereItLoads() {
    assertEquals(Epoll.isAvailable() ? Transports.EPOLL : Transports.NIO, Transports.best());
  }
}
