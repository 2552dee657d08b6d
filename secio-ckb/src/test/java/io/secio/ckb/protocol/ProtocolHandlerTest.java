package io.secio.ckb.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.secio.ckb.CkbConfig;
import io.secio.ckb.CkbException;
import io.secio.ckb.CkbNetwork;
import io.secio.ckb.CkbProtocol;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import org.junit.jupiter.api.Test;

/**
 * The rule every protocol shares beside the codec's: a handler that fails on a peer's message (a
 * node's handler panic, {@code ProtocolHandleError}) bans the peer for 300 s, as a node does.
 */
class ProtocolHandlerTest {
  private static final InetSocketAddress PEER = new InetSocketAddress("203.0.113.5", 4000);

  @Test
  void aHandlerFailingOnAMessageBansThePeer() {
    CkbConfig config = CkbConfig.builder(CkbNetwork.TESTNET).build();
    EmbeddedChannel connection = new EmbeddedChannel() {
      @Override
      protected SocketAddress remoteAddress0() {
        return PEER;
      }
    };
    Peer peer = new Peer(config, false, connection, null, p -> null);
    EmbeddedChannel stream = new EmbeddedChannel(new ProtocolHandler(peer, CkbProtocol.TIME) {
      @Override
      void onMessage(byte[] message) {
        throw new IllegalStateException("a bug");
      }
    });
    stream.writeInbound(Unpooled.wrappedBuffer(new byte[] {1}));
    assertTrue(config.banList().isBanned(PEER.getAddress()));
    CkbException cause = peer.closeCause();
    assertTrue(cause.isBan());
    assertEquals("Ban for 300 seconds, reason: protocol 102 panic when process peer message", cause.getMessage()
        .replaceFirst("^[A-Z_]+: ", ""));
    assertFalse(connection.isOpen());
    assertFalse(stream.finishAndReleaseAll());
    assertFalse(connection.finishAndReleaseAll());
  }
}
