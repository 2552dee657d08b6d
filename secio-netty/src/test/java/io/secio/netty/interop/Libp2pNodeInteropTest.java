package io.secio.netty.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.Future;
import io.secio.Dialect;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.identity.KeyType;
import io.secio.netty.NegotiationCompletionEvent;
import io.secio.netty.Secio;
import io.secio.netty.SecioHandshakeCompletionEvent;
import io.secio.netty.multistream.Multistream;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.SecioException;
import io.secio.testing.TestIdentities;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A Java node against a real js-libp2p 0.29.4 node ({@code libp2p-node.js}: TCP, secio 0.13.1 as its
 * only encryption, mplex 0.10.2), each side dialling the other, as libp2p upgrades a connection:
 * multistream-select picks {@code /secio/1.0.0}, secio runs, and inside the secure channel a second
 * multistream-select picks {@code /mplex/6.7.0}, which the Java side proposes or accepts. Every key
 * type of the node and of Java, both v0.1 ciphers (forced on the Java side; the node offers
 * {@code AES-256,AES-128}), and the expected-peer check in both directions.
 */
class Libp2pNodeInteropTest {
  private static final String MPLEX = "/mplex/6.7.0";
  private static final List<KeyType> KEY_TYPES = List.of(KeyType.ED25519, KeyType.SECP256K1, KeyType.RSA);
  private static final List<CipherAlgorithm> CIPHERS = List.of(CipherAlgorithm.AES_128_CTR, CipherAlgorithm.AES_256_CTR);
  /** Java dials each node this many times per cipher. */
  private static final int JAVA_DIALS = 5;
  /** Each node dials each Java listener this many times. */
  private static final int NODE_DIALS = 4;
  private static final Map<String, Integer> CONNECTIONS = new TreeMap<>();

  private static EventLoopGroup group;

  @BeforeAll
  static void startJavaSide() {
    group = JavaNode.TRANSPORT.newEventLoopGroup(2);
  }

  @BeforeEach
  void requireNode() {
    JsPeer.requireInstalled();
  }

  @AfterAll
  static void stopJavaSide() {
    if (group != null) {
      group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
      System.out.println("Libp2pNodeInteropTest: connections with a js-libp2p node that passed, by kind: " + CONNECTIONS);
    }
  }

  private static synchronized void count(String kind) {
    CONNECTIONS.merge(kind, 1, Integer::sum);
  }

  private static String js(KeyType type) {
    return type.name().toLowerCase(Locale.ROOT);
  }

  private static SecioConfig java(KeyType type, CipherAlgorithm cipher) {
    return SecioConfig.builder(TestIdentities.of(type)).ciphers(List.of(cipher)).build();
  }

  /** The application end: keeps the completion events in order and drains whatever else arrives. */
  private static final class Events extends ChannelInboundHandlerAdapter {
    final BlockingQueue<Object> events = new LinkedBlockingQueue<>();

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof NegotiationCompletionEvent || evt instanceof SecioHandshakeCompletionEvent) {
        events.add(evt);
      }
      ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ((ByteBuf) msg).release(); // the node's mplex frames (identify): not this test's business
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }

    /** multistream picked secio, secio succeeded, multistream inside it picked mplex: in that order. */
    SecioSession awaitUpgraded() throws InterruptedException {
      assertEquals(Multistream.SECIO, assertInstanceOf(NegotiationCompletionEvent.class, next()).protocol().name());
      SecioSession session = assertInstanceOf(SecioHandshakeCompletionEvent.class, next()).session();
      assertEquals(MPLEX, assertInstanceOf(NegotiationCompletionEvent.class, next()).protocol().name());
      return session;
    }

    private Object next() throws InterruptedException {
      Object event = events.poll(JsPeer.WAIT_SECONDS, TimeUnit.SECONDS);
      assertNotNull(event, "hang guard: no further completion event");
      return event;
    }
  }

  private Channel dial(int port, SecioConfig config, PeerId expected, Events events) throws InterruptedException {
    return new Bootstrap()
        .group(group)
        .channel(JavaNode.TRANSPORT.channelClass())
        .handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(Multistream.secioInitiator(config, expected), Multistream.initiator(MPLEX, null), events);
          }
        })
        .connect(new InetSocketAddress("127.0.0.1", port)).sync().channel();
  }

  @Test
  void javaDialsTheNodeAndTheNodeAcceptsMplexInsideTheSecureChannel() throws Exception {
    for (KeyType nodeType : KEY_TYPES) {
      try (JsPeer node = JsPeer.libp2pListener(js(nodeType))) {
        PeerId nodeId = PeerId.parse(node.peerId());
        int round = 0;
        for (CipherAlgorithm cipher : CIPHERS) {
          for (int i = 0; i < JAVA_DIALS; i++) {
            KeyType javaType = KEY_TYPES.get(round++ % KEY_TYPES.size());
            SecioConfig config = java(javaType, cipher);
            Events events = new Events();
            Channel ch = dial(node.port(), config, nodeId, events);
            try {
              SecioSession session = events.awaitUpgraded();
              assertEquals(nodeId, session.remotePeerId());
              assertEquals(cipher, session.cipher());
              JsonObject secured = node.next("secured");
              assertEquals(config.localPeerId().toBase58(), secured.get("remotePeer").getAsString());
              assertEquals(cipher.wireName(), secured.get("cipher").getAsString());
              assertEquals(session.exchange().wireName(), secured.get("exchange").getAsString());
              assertEquals(session.hash().wireName(), secured.get("hash").getAsString());
              assertEquals(config.localPeerId().toBase58(), node.next("connected").get("remotePeer").getAsString(),
                  "the node did not finish its upgrade with our peer id");
            } finally {
              ch.close().sync();
            }
            count("java dials node (" + js(nodeType) + ", " + cipher.wireName() + ")");
          }
        }
      }
    }
  }

  /** A Java listener that answers multistream, runs secio and accepts mplex inside it. */
  private static final class Listener implements AutoCloseable {
    final SecioConfig config;
    final Channel channel;
    final BlockingQueue<Channel> accepted = new LinkedBlockingQueue<>();
    final Map<Channel, Events> events = new java.util.concurrent.ConcurrentHashMap<>();

    Listener(SecioConfig config) throws InterruptedException {
      this.config = config;
      channel = new ServerBootstrap()
          .group(group)
          .channel(JavaNode.TRANSPORT.serverChannelClass())
          .childHandler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              Events e = new Events();
              events.put(ch, e);
              ch.pipeline().addLast(Multistream.secioResponder(config), Multistream.responder(MPLEX, null), e);
              accepted.add(ch);
            }
          })
          .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
    }

    String multiaddr() {
      return "/ip4/127.0.0.1/tcp/" + ((InetSocketAddress) channel.localAddress()).getPort()
          + "/p2p/" + config.localPeerId().toBase58();
    }

    /** The next accepted connection, fully upgraded: its session. */
    SecioSession nextUpgraded() throws Exception {
      Channel ch = accepted.poll(JsPeer.WAIT_SECONDS, TimeUnit.SECONDS);
      assertNotNull(ch, "no connection accepted");
      return events.get(ch).awaitUpgraded();
    }

    @Override
    public void close() {
      channel.close().syncUninterruptibly();
    }
  }

  @Test
  void theNodeDialsJavaListenersAndCompletesItsUpgrade() throws Exception {
    List<Listener> listeners = new ArrayList<>();
    List<JsPeer> dialers = new ArrayList<>();
    try {
      for (int i = 0; i < KEY_TYPES.size(); i++) {
        listeners.add(new Listener(java(KEY_TYPES.get(i), CIPHERS.get(i % CIPHERS.size()))));
      }
      List<String> multiaddrs = listeners.stream().map(Listener::multiaddr).toList();
      for (KeyType nodeType : KEY_TYPES) {
        JsPeer dialer = JsPeer.libp2pDialer(js(nodeType), multiaddrs, NODE_DIALS);
        dialers.add(dialer);
        for (int round = 0; round < NODE_DIALS; round++) {
          for (Listener listener : listeners) {
            String javaId = listener.config.localPeerId().toBase58();
            JsonObject secured = dialer.next("secured");
            assertEquals(javaId, secured.get("remotePeer").getAsString(), "the node saw another peer id");
            assertEquals(listener.config.ciphers().get(0).wireName(), secured.get("cipher").getAsString());
            assertEquals(javaId, dialer.next("connected").get("remotePeer").getAsString());
            assertEquals(javaId, dialer.next("dialled").get("remotePeer").getAsString());
            SecioSession session = listener.nextUpgraded();
            assertEquals(secured.get("localPeer").getAsString(), session.remotePeerId().toBase58());
            assertEquals(listener.config.ciphers().get(0), session.cipher());
            count("node dials java (" + js(nodeType) + ", " + session.cipher().wireName() + ")");
          }
        }
        dialer.assertExitedCleanly();
      }
    } finally {
      for (JsPeer d : dialers) {
        d.close();
      }
      for (Listener l : listeners) {
        l.close();
      }
    }
  }

  @Test
  void theExpectedPeerIsCheckedInBothDirections() throws Exception {
    try (JsPeer node = JsPeer.libp2pListener("secp256k1");
        Listener listener = new Listener(java(KeyType.SECP256K1, CipherAlgorithm.AES_128_CTR))) {
      // Java dials the node but expects someone else: secio fails, nothing is negotiated inside.
      PeerId someoneElse = Dialect.LIBP2P.peerId(TestIdentities.other(KeyType.ED25519).publicKey());
      Events events = new Events();
      Channel ch = dial(node.port(), java(KeyType.ED25519, CipherAlgorithm.AES_128_CTR), someoneElse, events);
      assertTrue(ch.closeFuture().await(JsPeer.WAIT_SECONDS, TimeUnit.SECONDS), "hang guard");
      Future<SecioSession> handshake = Secio.handshakeFuture(ch);
      assertEquals(SecioException.Reason.PEER_ID_MISMATCH,
          assertInstanceOf(SecioException.class, handshake.cause()).reason());
      assertFalse(Multistream.negotiationFuture(ch).isSuccess());
      count("java dials node, wrong expected peer (refused)");

      // The node dials our listener under a multiaddr with another peer id: the node refuses.
      String wrong = listener.multiaddr().replace(listener.config.localPeerId().toBase58(), someoneElse.toBase58());
      JsPeer dialer = JsPeer.libp2pDialer("ed25519", List.of(wrong), 1);
      try {
        JsonObject error = dialer.next("error");
        assertTrue(error.get("message").getAsString().contains("Dialed to the wrong peer"), error.toString());
        assertEquals(1, dialer.exitCode());
      } finally {
        dialer.close();
      }
      count("node dials java, wrong expected peer (refused)");
    }
  }
}
