package io.secio.libp2p;

import static io.secio.libp2p.Libp2pLoopbackTest.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.secio.Dialect;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.identity.KeyType;
import io.secio.multiaddr.Multiaddr;
import io.secio.protocol.SecioException;
import io.secio.streams.yamux.NodePeer;
import io.secio.testing.TestIdentities;
import java.net.InetSocketAddress;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A Java libp2p node against the real js-libp2p 0.29.4 node ({@code libp2p-node.js}: TCP, secio
 * 0.13.1, mplex 0.10.2), each dialling the other ({@code docs/STREAMS.md} §10). On each connection:
 * the muxer negotiated (Java offers yamux first, the node has only mplex), identify each way (the
 * node's record parsed and its key checked against the secio peer id; ours as the node's peer store
 * then holds it), ping each way, and {@code /echo/1.0.0} with 8 concurrent streams of 4 MiB of seeded
 * random data, every byte compared: Java's streams to the node's echo when Java dials, the node's
 * streams to Java's echo when the node dials. Needs node and the npm packages of {@code
 * secio-netty/src/test/js}: without them the tests fail under CI=true and are skipped elsewhere.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class JsLibp2pNodeInteropTest {
  private static final int STREAMS = 8;
  private static final int STREAM_BYTES = 4 * 1024 * 1024;
  /**
   * js-libp2p-mplex 0.10.2 hands secio all its pending messages as one write (it-pushable's {@code
   * writev}) and js-libp2p-secio seals each write as one frame, never split: the node's 8 streams
   * writing 4 MiB at once arrive as one frame of 32 MiB and more, which js-libp2p-secio itself would
   * refuse (its bound is 8 MiB). Java's bound is raised to what the test's streams can have pending.
   */
  private static final int MAX_FRAME_IN_BYTES = STREAMS * STREAM_BYTES + 8 * 1024 * 1024;
  private static final SecioConfig JAVA_DIALER = SecioConfig.builder(TestIdentities.of(KeyType.SECP256K1))
      .maxFrameLength(MAX_FRAME_IN_BYTES).build();
  private static final SecioConfig JAVA_LISTENER = SecioConfig.builder(TestIdentities.of(KeyType.ED25519))
      .maxFrameLength(MAX_FRAME_IN_BYTES).build();
  private static final String AGENT_VERSION = "secio-libp2p-interop-test/1.0";
  /** What Java's identify says it listens on; the node's address book must hold it after identify. */
  private static final Multiaddr JAVA_LISTEN_ADDR = Multiaddr.parse("/ip4/127.0.0.1/tcp/4001");
  private static final int PINGS = 3;
  @AutoClose
  private static final JavaNodes nodes = new JavaNodes();

  @BeforeEach
  void requireNode() {
    JsNode.requireInstalled();
  }

  private static Libp2pConfig config(ChannelHandler echo) {
    return Libp2pConfig.builder().muxers(Muxer.YAMUX, Muxer.MPLEX).protocol(EchoStream.PROTOCOL, echo)
        .agentVersion(AGENT_VERSION).listenAddrs(List.of(JAVA_LISTEN_ADDR)).build();
  }

  @Test
  void javaDialsTheNode() throws Exception {
    try (NodePeer node = JsNode.start("listen", "--key-type", "ed25519", "--echo", "--identify",
        "--ping-peer", Integer.toString(PINGS))) {
      JsonObject listening = node.next("listening");
      PeerId nodeId = PeerId.parse(listening.get("peerId").getAsString());
      int port = listening.get("port").getAsInt();
      Channel ch = nodes.dial(port, Libp2p.client(JAVA_DIALER, config(new EchoStream()), nodeId));
      try {
        Libp2pSession connection = get(Libp2p.sessionFuture(ch));
        assertEquals(Muxer.MPLEX, connection.muxer(), "the node answers na to yamux and takes mplex");
        assertEquals(JAVA_DIALER.localPeerId().toBase58(), node.next("secured").get("remotePeer").getAsString());
        node.next("connected");

        IdentifyRecord ofNode = get(connection.identify());
        assertTheNodes(ofNode, nodeId, Multiaddr.of((InetSocketAddress) ch.localAddress()).toString());
        assertEquals(List.of(Multiaddr.parse("/ip4/127.0.0.1/tcp/" + port)), ofNode.listenAddrs());
        for (int i = 0; i < PINGS; i++) {
          assertFalse(get(connection.ping()).isNegative(), "a round trip, measured");
        }
        Libp2pLoopbackTest.echo(connection, STREAMS, STREAM_BYTES, new Random(24));

        assertThePeerStoreHoldsUs(node.next("peer"), JAVA_DIALER);
        assertPinged(node, JAVA_DIALER);
        node.next("done");
        assertTrue(ch.isActive(), "the connection goes on");
      } finally {
        ch.close().sync();
      }
    }
  }

  @Test
  void theNodeDialsJava() throws Exception {
    Queue<String> echoedDigests = new ConcurrentLinkedQueue<>();
    try (JavaNodes.Listener listener = nodes.listen(
        () -> Libp2p.server(JAVA_LISTENER, config(digestingEcho(echoedDigests))));
        NodePeer node = JsNode.start("dial", "--key-type", "rsa", "--to", multiaddr(listener, JAVA_LISTENER),
            "--echo", "--identify", "--ping-peer", Integer.toString(PINGS),
            "--echo-streams", Integer.toString(STREAMS), "--echo-bytes", Integer.toString(STREAM_BYTES),
            "--seed", "24", "--hold")) {
      Channel ch = listener.next();
      Libp2pSession connection = get(Libp2p.sessionFuture(ch));
      assertEquals(Muxer.MPLEX, connection.muxer(), "the node proposes mplex");
      PeerId nodeId = PeerId.parse(node.next("secured").get("localPeer").getAsString());
      assertEquals(nodeId, connection.remotePeer().orElseThrow());
      node.next("connected");
      node.next("dialled");

      IdentifyRecord ofNode = get(connection.identify());
      assertTheNodes(ofNode, nodeId, Multiaddr.of((InetSocketAddress) ch.localAddress()) + "/p2p/"
          + JAVA_LISTENER.localPeerId().toBase58()); // the node saw us where it dialled
      assertEquals(List.of(), ofNode.listenAddrs(), "the dialling node listens nowhere");
      for (int i = 0; i < PINGS; i++) {
        assertFalse(get(connection.ping()).isNegative(), "a round trip, measured");
      }

      assertThePeerStoreHoldsUs(node.next("peer"), JAVA_LISTENER);
      assertPinged(node, JAVA_LISTENER);
      JsonObject echoed = node.next("echoed");
      assertEquals(STREAMS, echoed.get("streams").getAsInt());
      assertEquals(STREAM_BYTES, echoed.get("bytes").getAsInt());
      List<String> sent = new ArrayList<>();
      echoed.getAsJsonArray("sha256").forEach(e -> sent.add(e.getAsString()));
      List<String> seen = new ArrayList<>(echoedDigests);
      sent.sort(null);
      seen.sort(null);
      assertEquals(sent, seen, "Java's echo saw what each of the node's streams sent (the node checked the echo)");
      node.next("done");
      node.next("held");
      assertEquals(0, node.exit(), node.stderr());
      assertTrue(ch.closeFuture().await(JavaNodes.WAIT_MINUTES, TimeUnit.MINUTES), "the node hung up");
    }
  }

  /**
   * At secio's default bound (8 MiB, js-libp2p-secio's too) the node's batching is a frame too long:
   * one stream writing 12 MiB at once goes out as at most two frames. The connection ends with {@code
   * FRAME_TOO_LONG} and nothing of the frame reaches a stream.
   */
  @Test
  void aBatchOverSeciosDefaultBoundEndsTheConnectionWithFrameTooLong() throws Exception {
    SecioConfig atDefaultBound = JavaNodes.secio(KeyType.ED25519);
    CompletableFuture<Throwable> failure = new CompletableFuture<>();
    Queue<String> echoedDigests = new ConcurrentLinkedQueue<>();
    Supplier<ChannelHandler> server = () -> new ChannelInitializer<Channel>() {
      @Override
      protected void initChannel(Channel ch) {
        ch.pipeline().addLast(Libp2p.server(atDefaultBound, config(digestingEcho(echoedDigests))),
            new ChannelInboundHandlerAdapter() {
              @Override
              public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                failure.complete(cause);
              }
            });
      }
    };
    try (JavaNodes.Listener listener = nodes.listen(server);
        NodePeer node = JsNode.start("dial", "--key-type", "secp256k1", "--to", multiaddr(listener, atDefaultBound),
            "--echo-streams", "1", "--echo-bytes", Integer.toString(12 * 1024 * 1024))) {
      Channel ch = listener.next();
      get(Libp2p.sessionFuture(ch));
      SecioException e = assertInstanceOf(SecioException.class, failure.get(JavaNodes.WAIT_MINUTES, TimeUnit.MINUTES));
      assertEquals(SecioException.Reason.FRAME_TOO_LONG, e.reason());
      assertTrue(ch.closeFuture().await(JavaNodes.WAIT_MINUTES, TimeUnit.MINUTES), "the connection closed");
      assertTrue(echoedDigests.isEmpty(), "the stream never ended whole: " + echoedDigests);
      node.next("secured");
      node.next("connected");
      node.next("dialled");
      assertEquals(multiaddr(listener, atDefaultBound), node.next("error").get("target").getAsString());
      assertEquals(1, node.exit(), node.stderr());
    }
  }

  /** Where the node dials {@code listener}, with its peer id (libp2p dials only a known peer). */
  private static String multiaddr(JavaNodes.Listener listener, SecioConfig secio) {
    return "/ip4/127.0.0.1/tcp/" + listener.port() + "/p2p/" + secio.localPeerId().toBase58();
  }

  /** {@link EchoStream} behind a {@link Digest} that adds each stream's digest to {@code digests}. */
  private static ChannelHandler digestingEcho(Queue<String> digests) {
    return new ChannelInitializer<Channel>() {
      @Override
      protected void initChannel(Channel stream) {
        stream.pipeline().addLast(new Digest(digests), new EchoStream());
      }
    };
  }

  /** The node's identify record: its key the secio peer id's, its protocols, its agent, where it saw us. */
  private static void assertTheNodes(IdentifyRecord record, PeerId nodeId, String observedAddr) {
    assertEquals(nodeId, record.peerId());
    assertEquals(nodeId, Dialect.LIBP2P.peerId(record.publicKey()), "the record's key is the secio peer's");
    assertTrue(record.protocols().containsAll(List.of(Libp2pConfig.IDENTIFY, Libp2pConfig.PING, EchoStream.PROTOCOL)),
        record.protocols().toString());
    assertTrue(record.agentVersion().startsWith("js-libp2p/"), record.agentVersion());
    assertEquals(Libp2pConfig.PROTOCOL_VERSION, record.protocolVersion());
    assertEquals(observedAddr, String.valueOf(record.observedAddr()), "where the node saw us");
  }

  /** The node's {@code peer} event: what its peer store holds for us after it identified us. */
  private static void assertThePeerStoreHoldsUs(JsonObject peer, SecioConfig us) {
    assertEquals(us.localPeerId().toBase58(), peer.get("remotePeer").getAsString());
    List<String> protocols = new ArrayList<>();
    peer.getAsJsonArray("protocols").forEach(p -> protocols.add(p.getAsString()));
    assertEquals(List.of(Libp2pConfig.IDENTIFY, Libp2pConfig.PING, EchoStream.PROTOCOL), protocols);
    assertEquals(AGENT_VERSION, peer.get("agentVersion").getAsString());
    List<String> addresses = new ArrayList<>();
    peer.getAsJsonArray("addresses").forEach(a -> addresses.add(a.getAsString()));
    assertEquals(List.of(JAVA_LISTEN_ADDR.toString()), addresses, "our identify's listen addresses");
  }

  /** The node's {@code node.ping(us)}, each a round trip in milliseconds. */
  private static void assertPinged(NodePeer node, SecioConfig us) {
    for (int i = 0; i < PINGS; i++) {
      JsonObject pinged = node.next("pinged");
      assertEquals(us.localPeerId().toBase58(), pinged.get("remotePeer").getAsString());
      JsonElement ms = pinged.get("ms");
      assertTrue(ms.isJsonPrimitive() && ms.getAsJsonPrimitive().isNumber() && ms.getAsDouble() >= 0, pinged.toString());
    }
  }

  /** In front of an echo stream: the SHA-256 of all the stream brought, hex, kept at its half-close. */
  private static final class Digest extends ChannelInboundHandlerAdapter {
    private final Queue<String> digests;
    private final MessageDigest sha256;

    Digest(Queue<String> digests) {
      this.digests = digests;
      try {
        sha256 = MessageDigest.getInstance("SHA-256");
      } catch (NoSuchAlgorithmException e) {
        throw new AssertionError(e);
      }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      sha256.update(((ByteBuf) msg).nioBuffer());
      ctx.fireChannelRead(msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof ChannelInputShutdownEvent) {
        digests.add(HexFormat.of().formatHex(sha256.digest()));
      }
      ctx.fireUserEventTriggered(evt);
    }
  }
}
