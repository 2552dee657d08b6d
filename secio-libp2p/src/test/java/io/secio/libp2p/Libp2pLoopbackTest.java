package io.secio.libp2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.util.concurrent.Future;
import io.secio.SecioConfig;
import io.secio.identity.KeyType;
import io.secio.multiaddr.Multiaddr;
import io.secio.netty.multistream.MultistreamException;
import io.secio.streams.StreamChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Two Java libp2p nodes on loopback sockets, for each muxer ({@code docs/STREAMS.md} §10): the muxer
 * agreed from the preference lists, identify each way with the key checked, ping each way, 8
 * concurrent echo streams with every byte checked, an unknown protocol answered {@code na}, and the
 * dialer's preference order against a listener that has one muxer only.
 */
class Libp2pLoopbackTest {
  private static final SecioConfig SERVER = JavaNodes.secio(KeyType.ED25519);
  private static final SecioConfig CLIENT = JavaNodes.secio(KeyType.SECP256K1);
  @AutoClose
  private static final JavaNodes nodes = new JavaNodes();

  static Libp2pConfig config(Muxer... muxers) {
    return Libp2pConfig.builder().muxers(muxers).protocol(EchoStream.PROTOCOL, new EchoStream())
        .agentVersion("loopback-test").listenAddrs(List.of(Multiaddr.parse("/ip4/127.0.0.1/tcp/4001"))).build();
  }

  static <T> T get(Future<T> future) throws Exception {
    assertTrue(future.await(JavaNodes.WAIT_MINUTES, TimeUnit.MINUTES), "hang guard");
    if (!future.isSuccess()) {
      throw new ExecutionException(future.cause());
    }
    return future.getNow();
  }

  @ParameterizedTest
  @EnumSource(Muxer.class)
  void identifyPingAndEchoStreamsBothWays(Muxer muxer) throws Exception {
    try (JavaNodes.Listener listener = nodes.listen(() -> Libp2p.server(SERVER, config(Muxer.YAMUX, Muxer.MPLEX)))) {
      Channel ch = nodes.dial(listener.port(), Libp2p.client(CLIENT, config(muxer), SERVER.localPeerId()));
      try {
        Libp2pSession client = get(Libp2p.sessionFuture(ch));
        Libp2pSession server = get(Libp2p.sessionFuture(listener.next()));
        assertEquals(muxer, client.muxer());
        assertEquals(muxer, server.muxer());

        IdentifyRecord ofServer = get(client.identify());
        assertEquals(SERVER.localPeerId(), ofServer.peerId());
        assertEquals(List.of(Libp2pConfig.IDENTIFY, Libp2pConfig.PING, EchoStream.PROTOCOL), ofServer.protocols());
        assertEquals("loopback-test", ofServer.agentVersion());
        assertEquals(Libp2pConfig.PROTOCOL_VERSION, ofServer.protocolVersion());
        assertEquals("[/ip4/127.0.0.1/tcp/4001]", ofServer.listenAddrs().toString());
        assertEquals("/ip4/127.0.0.1/tcp/" + ((java.net.InetSocketAddress) ch.localAddress()).getPort(),
            ofServer.observedAddr().toString(), "where the server saw us");
        assertTrue(client.identify() != null && get(client.identify()) == ofServer, "requested once, kept");
        IdentifyRecord ofClient = get(server.identify());
        assertEquals(CLIENT.localPeerId(), ofClient.peerId());

        for (int i = 0; i < 3; i++) {
          assertFalse(get(client.ping()).isNegative(), "a round trip, measured");
          assertFalse(get(server.ping()).isNegative(), "a round trip, measured");
        }

        echo(client, 8, 1024 * 1024, new Random(8));
        echo(server, 2, 100_000, new Random(2));

        ExecutionException refused = assertThrows(ExecutionException.class,
            () -> get(client.openStream("/not/served/1.0.0", new Received())));
        assertEquals(MultistreamException.Reason.NO_COMMON_PROTOCOL,
            assertInstanceOf(MultistreamException.class, refused.getCause()).reason());
        assertTrue(ch.isActive(), "a refused protocol costs one stream, not the connection");
      } finally {
        ch.close().sync();
      }
    }
  }

  /** {@code streams} concurrent echo streams of {@code bytes} each: every byte back, in order. */
  static void echo(Libp2pSession connection, int streams, int bytes, Random random) throws Exception {
    List<byte[]> sent = new ArrayList<>();
    List<Received> back = new ArrayList<>();
    for (int i = 0; i < streams; i++) {
      byte[] data = new byte[bytes];
      random.nextBytes(data);
      Received received = new Received();
      StreamChannel stream = get(connection.openStream(EchoStream.PROTOCOL, received));
      stream.write(Unpooled.wrappedBuffer(data));
      stream.flush();
      stream.shutdownOutput();
      sent.add(data);
      back.add(received);
    }
    for (int i = 0; i < streams; i++) {
      assertArrayEquals(sent.get(i), back.get(i).ended.get(JavaNodes.WAIT_MINUTES, TimeUnit.MINUTES), "stream " + i);
    }
  }

  @Test
  void theDialersPreferenceIsProposedInOrderAndTheListenersOnlyMuxerWins() throws Exception {
    try (JavaNodes.Listener listener = nodes.listen(() -> Libp2p.server(SERVER, config(Muxer.MPLEX)))) {
      Channel ch = nodes.dial(listener.port(), Libp2p.client(CLIENT, config(Muxer.YAMUX, Muxer.MPLEX)));
      try {
        assertEquals(Muxer.MPLEX, get(Libp2p.sessionFuture(ch)).muxer(), "yamux answered na, then mplex");
      } finally {
        ch.close().sync();
      }
    }
    try (JavaNodes.Listener listener = nodes.listen(() -> Libp2p.server(SERVER, config(Muxer.MPLEX)))) {
      Channel ch = nodes.dial(listener.port(), Libp2p.client(CLIENT, config(Muxer.YAMUX)));
      Libp2pException none = assertThrows(Libp2pException.class, () -> Libp2p.awaitSession(ch), "no muxer in common");
      assertEquals(Libp2pException.Reason.NEGOTIATION_FAILED, none.reason());
      assertEquals(MultistreamException.Reason.NO_COMMON_PROTOCOL,
          assertInstanceOf(MultistreamException.class, none.getCause()).reason());
      assertTrue(ch.closeFuture().await(JavaNodes.WAIT_MINUTES, TimeUnit.MINUTES));
    }
  }
}
