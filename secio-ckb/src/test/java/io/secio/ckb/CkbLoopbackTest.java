package io.secio.ckb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.secio.Dialect;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.ckb.message.SyncMessage;
import io.secio.ckb.testing.MoleculeExamples;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.multiaddr.Multiaddr;
import io.secio.netty.Transports;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Our dialer and our listener on real loopback sockets, secio in tentacle's dialect with secp256k1
 * keys: identify both ways (the observed address as dialed), pings answered both ways, one GetNodes
 * answered from the listener's address book, an InIBD answer on Sync, and a goodbye on the disconnect
 * message; each side keeps the other until then.
 */
class CkbLoopbackTest {
  private static final Duration HANG_GUARD = Duration.ofMinutes(2);
  private static final Multiaddr KNOWN = Multiaddr.parse("/ip4/18.217.146.65/tcp/8111/p2p/QmT6DFfm18wtbJz3y4aPNn3ac86N4d4p4xtfQRRPf73frC");
  private static EventLoopGroup group;

  @BeforeAll
  static void start() {
    group = Transports.best().newEventLoopGroup(2);
  }

  @AfterAll
  static void stop() {
    group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
  }

  private record Heard(CkbSession session, CkbEvent event) {}

  private static SecioConfig secio(IdentityKeyPair identity) {
    return SecioConfig.builder(identity).dialect(Dialect.TENTACLE).build();
  }

  private static CkbConfig config(BlockingQueue<Heard> heard) {
    return CkbConfig.builder(CkbNetwork.TESTNET)
        .localAddresses(true)
        .ping(Duration.ofMillis(200), Duration.ofMinutes(1))
        .listener((s, e) -> heard.add(new Heard(s, e)))
        .build();
  }

  private static <T extends CkbEvent> T next(BlockingQueue<Heard> heard, Class<T> type) throws InterruptedException {
    while (true) {
      Heard h = heard.poll(2, TimeUnit.MINUTES);
      assertNotNull(h, "no " + type.getSimpleName() + " within 2 minutes");
      if (type.isInstance(h.event())) {
        return type.cast(h.event());
      }
      assertFalse(h.event() instanceof CkbEvent.Closed, () -> "closed before " + type.getSimpleName() + ": " + h.event());
    }
  }

  @Test
  void aDialerAndAListenerKeepEachOther() {
    assertTimeoutPreemptively(HANG_GUARD, () -> {
      BlockingQueue<Heard> serverHeard = new LinkedBlockingQueue<>();
      BlockingQueue<Heard> clientHeard = new LinkedBlockingQueue<>();
      IdentityKeyPair serverKey = IdentityKeyPair.generate(KeyType.SECP256K1, new SecureRandom());
      CkbConfig serverConfig = config(serverHeard);
      serverConfig.addressBook().add(KNOWN, IdentifyFlags.FULL_NODE_REQUIRED);
      Channel server = new ServerBootstrap().group(group).channel(Transports.best().serverChannelClass())
          .childHandler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              ch.pipeline().addLast(Ckb.server(secio(serverKey), serverConfig));
            }
          })
          .bind("127.0.0.1", 0).syncUninterruptibly().channel();
      try {
        PeerId serverId = Dialect.TENTACLE.peerId(serverKey.publicKey());
        Multiaddr dialed = Multiaddr.of((InetSocketAddress) server.localAddress()).withPeerId(serverId);
        Channel client = new Bootstrap().group(group).channel(Transports.best().channelClass())
            .handler(new ChannelInitializer<Channel>() {
              @Override
              protected void initChannel(Channel ch) {
                ch.pipeline().addLast(Ckb.client(secio(IdentityKeyPair.generate(KeyType.SECP256K1, new SecureRandom())),
                    config(clientHeard), dialed));
              }
            })
            .connect(server.localAddress()).syncUninterruptibly().channel();

        CkbSession session = Ckb.sessionFuture(client).get(2, TimeUnit.MINUTES);
        assertEquals(CkbNetwork.TESTNET.identifyName(), session.identify().name());
        assertEquals(serverId, session.remotePeer().orElseThrow());
        CkbEvent.Identified atServer = next(serverHeard, CkbEvent.Identified.class);
        assertEquals(dialed, atServer.record().observedAddr(), "the client sent the address as it dialed it");
        assertEquals(IdentifyFlags.DISCOVERY, atServer.record().flags());

        assertEquals(List.of(new Node(List.of(KNOWN), IdentifyFlags.FULL_NODE_REQUIRED)), session.nodes().get(2, TimeUnit.MINUTES));

        for (int i = 0; i < 3; i++) {
          assertTrue(next(clientHeard, CkbEvent.PingAnswered.class).roundTrip().toNanos() > 0);
          next(serverHeard, CkbEvent.PingAnswered.class);
        }

        Channel sync = session.stream(CkbProtocol.SYNC).orElseThrow();
        sync.writeAndFlush(Unpooled.wrappedBuffer(MoleculeExamples.bytes("get_headers_testnet_genesis")));
        next(clientHeard, CkbEvent.PeerInIbd.class);
        assertTrue(session.peerInIbd());

        assertTrue(client.isActive(), "the listener keeps the dialer");
        session.disconnect("goodbye from the dialer").get(2, TimeUnit.MINUTES);
        CkbEvent.PeerSaidGoodbye goodbye = next(serverHeard, CkbEvent.PeerSaidGoodbye.class);
        assertEquals("goodbye from the dialer", goodbye.message());
        CkbEvent.Closed closed = next(serverHeard, CkbEvent.Closed.class);
        assertEquals(CkbException.Reason.CLOSED, closed.cause().reason());
        assertInstanceOf(CkbException.class, session.closeCause().orElseThrow());
      } finally {
        server.close().syncUninterruptibly();
      }
    });
  }
}
