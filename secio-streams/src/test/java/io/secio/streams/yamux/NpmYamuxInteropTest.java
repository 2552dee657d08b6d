package io.secio.streams.yamux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.google.gson.JsonObject;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.secio.streams.CollectedStream;
import io.secio.streams.StreamChannel;
import io.secio.streams.StreamChannelBootstrap;
import io.secio.streams.StreamResetException;
import io.secio.streams.TestStreams;
import io.secio.testsupport.ChildProcess;
import io.secio.testsupport.Collect;
import io.secio.testsupport.Echo;
import java.net.InetSocketAddress;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * yamux against real npm implementations over plaintext loopback TCP ({@code docs/STREAMS.md} §7):
 * yamux-js 0.2.0 (a port of hashicorp/yamux) and @chainsafe/libp2p-yamux 7.0.4 (js-libp2p's), each
 * run by {@code src/test/js/yamux-peer.js}. Both directions (Java dials node, node dials Java),
 * streams opened from each side, 64 MiB on one stream with window updates, 100 streams at once, every
 * byte checked by SHA-256, half-close each way, reset each way.
 */
class NpmYamuxInteropTest {
  private static final int MIB = 1024 * 1024;
  private static final YamuxConfig CONFIG = YamuxConfig.libp2p();
  private static final long WAIT_MINUTES = ChildProcess.WAIT.toMinutes();
  private static EventLoopGroup group;

  @BeforeAll
  static void start() {
    group = new NioEventLoopGroup(1);
  }

  @AfterAll
  static void stop() {
    group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
  }

  @BeforeEach
  void requireNode() {
    NodePeer.requireInstalled();
  }

  private static String sha256(byte[] data) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
  }

  /** Opens a stream, sends {@code data}, half-closes; the future is the echo's digest. */
  private static TestStreams.Receive echoFrom(Channel connection, byte[] data) throws Exception {
    TestStreams.Receive r = new TestStreams.Receive();
    StreamChannel s = new StreamChannelBootstrap(connection).option(ChannelOption.ALLOW_HALF_CLOSURE, true)
        .handler(r).open().get(WAIT_MINUTES, TimeUnit.MINUTES);
    TestStreams.send(s, data);
    return r;
  }

  /** Java's streams to the peer: 64 MiB on one, 100 at once, then a reset of ours. */
  private static void javaOpens(Channel connection, ChildProcess peer) throws Exception {
    byte[] big = TestStreams.pattern(64 * MIB, 7);
    TestStreams.Receive bigEcho = echoFrom(connection, big);
    assertEquals(sha256(big), HexFormat.of().formatHex(bigEcho.digest.get(WAIT_MINUTES, TimeUnit.MINUTES)));
    JsonObject inbound = peer.next("inbound");
    assertEquals(64 * MIB, inbound.get("bytes").getAsLong());
    assertEquals("fin", inbound.get("end").getAsString(), "our half-close reached the peer");

    List<TestStreams.Receive> echoes = new ArrayList<>();
    List<byte[]> sent = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      byte[] data = TestStreams.pattern(64 * 1024 + i, i);
      sent.add(data);
      echoes.add(echoFrom(connection, data));
    }
    for (int i = 0; i < 100; i++) {
      assertEquals(sha256(sent.get(i)), HexFormat.of().formatHex(echoes.get(i).digest.get(WAIT_MINUTES,
          TimeUnit.MINUTES)), "stream " + i);
    }
    for (int i = 0; i < 100; i++) {
      assertEquals("fin", peer.next("inbound").get("end").getAsString());
    }

    StreamChannel doomed = new StreamChannelBootstrap(connection).handler(Collect.observing())
        .open().get(WAIT_MINUTES, TimeUnit.MINUTES);
    doomed.writeAndFlush(Unpooled.wrappedBuffer(new byte[8])).get(WAIT_MINUTES, TimeUnit.MINUTES);
    doomed.reset();
    assertEquals("reset", peer.next("inbound").get("end").getAsString(), "our reset reached the peer");
  }

  /** The peer's streams to Java (echoed here): 64 MiB, 100 at once, then a reset of its own. */
  private static void peerOpens(ChildProcess peer, BlockingQueue<CollectedStream> accepted) throws Exception {
    peer.writeLine("{\"cmd\":\"open\",\"tag\":\"big\",\"bytes\":" + 64 * MIB + ",\"seed\":3}");
    JsonObject big = peer.next("echo");
    assertEquals(64 * MIB, big.get("bytes").getAsLong());
    assertEquals(sha256(TestStreams.pattern(64 * MIB, 3)), big.get("sha256").getAsString());
    for (int i = 0; i < 100; i++) {
      peer.writeLine("{\"cmd\":\"open\",\"tag\":\"s" + i + "\",\"bytes\":" + (50_000 + i) + ",\"seed\":" + i + "}");
    }
    List<JsonObject> echoes = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      echoes.add(peer.next("echo"));
    }
    for (JsonObject e : echoes) {
      int i = Integer.parseInt(e.get("tag").getAsString().substring(1));
      assertEquals(sha256(TestStreams.pattern(50_000 + i, i)), e.get("sha256").getAsString(), "stream " + i);
    }
    accepted.clear();
    peer.writeLine("{\"cmd\":\"reset\",\"tag\":\"r\"}");
    peer.next("reset-sent");
    Collect reset = accepted.poll(WAIT_MINUTES, TimeUnit.MINUTES).collect();
    reset.awaitInactive();
    assertInstanceOf(StreamResetException.class, reset.exceptions().get(0), "the peer's reset: " + reset.events());
  }

  /**
   * Inbound streams here: each echoed, with half-closure, and collected after the echo, so that the
   * reset test hears how its stream ended.
   */
  private static ChannelInitializer<Channel> inbound(BlockingQueue<CollectedStream> accepted) {
    Echo echo = Echo.passingExceptionsOn();
    return CollectedStream.into(accepted, ch -> {
      ch.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
      ch.pipeline().addLast(echo);
    });
  }

  @ParameterizedTest
  @ValueSource(strings = {"yamux-js", "chainsafe"})
  void javaDialsNode(String impl) throws Exception {
    BlockingQueue<CollectedStream> accepted = new LinkedBlockingQueue<>();
    try (ChildProcess peer = NodePeer.listen(impl)) {
      int port = peer.next("listening").get("port").getAsInt();
      Channel connection = new Bootstrap().group(group).channel(NioSocketChannel.class)
          .handler(YamuxHandler.client(CONFIG, inbound(accepted)))
          .connect(new InetSocketAddress("127.0.0.1", port)).syncUninterruptibly().channel();
      try {
        javaOpens(connection, peer);
        peerOpens(peer, accepted);
      } finally {
        connection.close().syncUninterruptibly();
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"yamux-js", "chainsafe"})
  void nodeDialsJava(String impl) throws Exception {
    BlockingQueue<CollectedStream> accepted = new LinkedBlockingQueue<>();
    CompletableFuture<Channel> connection = new CompletableFuture<>();
    Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
        .childHandler(new ChannelInitializer<>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(YamuxHandler.server(CONFIG, inbound(accepted)));
            connection.complete(ch);
          }
        }).bind("127.0.0.1", 0).syncUninterruptibly().channel();
    try (ChildProcess peer = NodePeer.dial(impl, ((InetSocketAddress) server.localAddress()).getPort())) {
      peer.next("connected");
      Channel conn = connection.get(WAIT_MINUTES, TimeUnit.MINUTES);
      peerOpens(peer, accepted);
      javaOpens(conn, peer);
    } finally {
      server.close().syncUninterruptibly();
    }
  }
}
