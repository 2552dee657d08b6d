package io.secio.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.secio.Dialect;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.SecioMode;
import io.secio.SecioSession;
import io.secio.frame.CipherPair;
import io.secio.frame.FrameReader;
import io.secio.frame.Frames;
import io.secio.handshake.HandshakeEngine;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ProtocolVersion;
import io.secio.testing.TestIdentities;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One listener for any dialect ({@link SecioConfig.Builder#anyDialect()}) on one loopback port,
 * serving a libp2p v0.1 dialer, a libp2p v0.2 dialer and a tentacle dialer, each answered in its own
 * dialect and echoed byte for byte; and a tentacle peer that behaves as tentacle does on a socket
 * (Propose first, then reading; one frame per write, up to 8 MiB).
 */
class DialectBridgeTest {
  private static final long WAIT_SECONDS = 300;
  private static final IdentityKeyPair LISTENER = TestIdentities.of(KeyType.SECP256K1);
  private static final SecioConfig BRIDGE = SecioConfig.builder(LISTENER).anyDialect().build();

  private EventLoopGroup group;
  private Channel server;
  private final BlockingQueue<SecioHandshakeCompletionEvent> accepted = new LinkedBlockingQueue<>();

  @BeforeEach
  void listen() throws InterruptedException {
    group = new NioEventLoopGroup(2);
    server = new ServerBootstrap()
        .group(group)
        .channel(NioServerSocketChannel.class)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            ch.pipeline().addLast(Secio.server(BRIDGE), new LoopbackTest.Echo(), new ChannelInboundHandlerAdapter() {
              @Override
              public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                if (evt instanceof SecioHandshakeCompletionEvent e) {
                  accepted.add(e);
                }
              }
            });
          }
        })
        .bind("127.0.0.1", 0).sync().channel();
  }

  @AfterEach
  void close() {
    server.close().syncUninterruptibly();
    group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
  }

  @Test
  void oneListenerAnswersLibp2pV01V02AndTentacleDialersInTheirOwnDialect() throws Exception {
    SecioConfig v01 = SecioConfig.builder(TestIdentities.of(KeyType.ED25519)).mode(SecioMode.V0_1_ONLY).build();
    SecioConfig v02 = SecioConfig.builder(TestIdentities.of(KeyType.ECDSA)).mode(SecioMode.V0_2_ONLY).build();
    SecioConfig tentacle = SecioConfig.builder(TestIdentities.other(KeyType.SECP256K1)).dialect(Dialect.TENTACLE).build();
    List<Dialer> dialers = List.of(
        new Dialer(v01, Dialect.LIBP2P.peerId(LISTENER.publicKey())),
        new Dialer(v02, Dialect.LIBP2P.peerId(LISTENER.publicKey())),
        new Dialer(tentacle, Dialect.TENTACLE.peerId(LISTENER.publicKey())));
    List<SecioSession> sessions = new ArrayList<>();
    for (Dialer d : dialers) {
      sessions.add(d.session.get(WAIT_SECONDS, TimeUnit.SECONDS));
    }
    assertEquals(List.of(Dialect.LIBP2P, Dialect.LIBP2P, Dialect.TENTACLE),
        sessions.stream().map(SecioSession::dialect).toList());
    assertEquals(List.of(ProtocolVersion.V0_1, ProtocolVersion.V0_2, ProtocolVersion.V0_2),
        sessions.stream().map(SecioSession::version).toList());
    assertEquals(CipherAlgorithm.AES_128_GCM, sessions.get(2).cipher(), "tentacle's first cipher");

    Random random = new Random(15);
    for (Dialer d : dialers) {
      byte[] data = new byte[200_000 + random.nextInt(1000)];
      random.nextBytes(data);
      assertArrayEquals(data, d.echo(data), d.toString());
    }
    List<Dialect> answered = new ArrayList<>();
    for (int i = 0; i < dialers.size(); i++) {
      SecioHandshakeCompletionEvent event = accepted.poll(WAIT_SECONDS, TimeUnit.SECONDS);
      assertTrue(event != null && event.isSuccess(), String.valueOf(event));
      answered.add(event.dialect());
      if (event.dialect() == Dialect.TENTACLE) {
        assertEquals(Dialect.TENTACLE.peerId(tentacle.identity().publicKey()), event.session().remotePeerId());
        assertEquals(Dialect.TENTACLE.peerId(LISTENER.publicKey()), event.session().localPeerId());
      }
    }
    assertEquals(2, answered.stream().filter(Dialect.LIBP2P::equals).count());
    assertTrue(answered.contains(Dialect.TENTACLE));
    dialers.forEach(d -> d.channel.close().syncUninterruptibly());
  }

  @Test
  void aTentaclePeerWritesFirstAndSendsFramesUpTo8MiB() throws Exception {
    SecioConfig config = SecioConfig.builder(TestIdentities.other(KeyType.SECP256K1))
        .dialect(Dialect.TENTACLE)
        .expectedRemotePeer(Dialect.TENTACLE.peerId(LISTENER.publicKey()))
        .build();
    HandshakeEngine engine = HandshakeEngine.create(config);
    int port = ((InetSocketAddress) server.localAddress()).getPort();
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
      OutputStream out = socket.getOutputStream();
      InputStream in = socket.getInputStream();
      FrameReader reader = new FrameReader(SecioConfig.DEFAULT_MAX_FRAME_LENGTH_IN_BYTES);
      List<byte[]> frames = new ArrayList<>();
      // As tentacle: our Propose is on the wire before we read a byte.
      write(out, engine.start());
      while (!engine.isComplete()) {
        byte[] frame = next(in, reader, frames);
        write(out, engine.receive(frame));
      }
      SecioSession session = engine.session();
      CipherPair ciphers = engine.split();
      assertEquals(Dialect.TENTACLE, session.dialect());

      // One write, one frame: 8 MiB of payload, the largest either side accepts.
      byte[] big = new byte[SecioConfig.DEFAULT_MAX_FRAME_LENGTH_IN_BYTES - CipherAlgorithm.TAG_SIZE_IN_BYTES];
      new Random(8).nextBytes(big);
      byte[] sealed = ciphers.sealer().seal(big);
      assertEquals(SecioConfig.DEFAULT_MAX_FRAME_LENGTH_IN_BYTES, sealed.length);
      out.write(Frames.withHeader(sealed));
      out.flush();
      ByteArrayOutputStream echoed = new ByteArrayOutputStream();
      while (echoed.size() < big.length) {
        echoed.writeBytes(ciphers.opener().open(next(in, reader, frames)));
      }
      assertArrayEquals(big, echoed.toByteArray());
    }
  }

  private static void write(OutputStream out, List<byte[]> payloads) throws java.io.IOException {
    for (byte[] p : payloads) {
      out.write(Frames.withHeader(p));
    }
    out.flush();
  }

  /** The next whole frame payload from the socket. */
  private static byte[] next(InputStream in, FrameReader reader, List<byte[]> pending) throws Exception {
    byte[] chunk = new byte[64 * 1024];
    while (pending.isEmpty()) {
      int n = in.read(chunk);
      assertTrue(n > 0, "the listener closed the connection");
      pending.addAll(reader.read(ByteBuffer.wrap(chunk, 0, n)));
    }
    return pending.remove(0);
  }

  /** A Netty dialer through {@link Secio#client(SecioConfig, PeerId)} that collects what comes back. */
  private final class Dialer extends ChannelInboundHandlerAdapter {
    final CompletableFuture<SecioSession> session = new CompletableFuture<>();
    final Channel channel;
    private final ByteArrayOutputStream received = new ByteArrayOutputStream();
    private final String name;
    private CompletableFuture<byte[]> waiting;
    private int expected;

    Dialer(SecioConfig config, PeerId listener) throws InterruptedException {
      this(config, listener, server);
    }

    Dialer(SecioConfig config, PeerId listener, Channel to) throws InterruptedException {
      name = config.dialect().orElseThrow() + " " + config.ciphers();
      channel = new Bootstrap()
          .group(group)
          .channel(NioSocketChannel.class)
          .handler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
              ch.pipeline().addLast(Secio.client(config, listener), Dialer.this);
            }
          })
          .connect(to.localAddress()).sync().channel();
    }

    byte[] echo(byte[] data) throws Exception {
      CompletableFuture<byte[]> done;
      synchronized (this) {
        received.reset();
        expected = data.length;
        done = waiting = new CompletableFuture<>();
      }
      channel.writeAndFlush(Unpooled.wrappedBuffer(data)).sync();
      return done.get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof SecioHandshakeCompletionEvent e) {
        if (e.isSuccess()) {
          session.complete(e.session());
        } else {
          session.completeExceptionally(e.cause());
        }
      }
    }

    @Override
    public synchronized void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf buf = (ByteBuf) msg;
      try {
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        received.writeBytes(bytes);
      } finally {
        buf.release();
      }
      if (waiting != null && received.size() >= expected) {
        waiting.complete(received.toByteArray());
      }
    }

    @Override
    public String toString() {
      return name;
    }
  }

  @Test
  void aListenerForAnyDialectWithAKeyTentacleCannotCarryServesLibp2pDialers() throws Exception {
    SecioConfig ed25519Any = SecioConfig.builder(TestIdentities.other(KeyType.ED25519))
        .mode(SecioMode.V0_1_ONLY).anyDialect().build();
    Channel other = new ServerBootstrap()
        .group(group)
        .channel(NioServerSocketChannel.class)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            ch.pipeline().addLast(Secio.server(ed25519Any), new LoopbackTest.Echo());
          }
        })
        .bind("127.0.0.1", 0).sync().channel();
    try {
      Dialer v01 = new Dialer(SecioConfig.builder(TestIdentities.of(KeyType.ED25519)).mode(SecioMode.V0_1_ONLY).build(),
          Dialect.LIBP2P.peerId(TestIdentities.other(KeyType.ED25519).publicKey()), other);
      assertEquals(ProtocolVersion.V0_1, v01.session.get(WAIT_SECONDS, TimeUnit.SECONDS).version());
      byte[] data = new byte[1000];
      assertArrayEquals(data, v01.echo(data));
      v01.channel.close().syncUninterruptibly();
    } finally {
      other.close().syncUninterruptibly();
    }
  }

  @Test
  void aDialerMustStateItsDialect() {
    assertFalse(BRIDGE.dialect().isPresent());
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> Secio.client(BRIDGE));
  }
}
