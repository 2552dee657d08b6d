package io.secio.libp2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.secio.SecioConfig;
import io.secio.identity.KeyType;
import io.secio.streams.StreamChannel;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Hostile peers on loopback ({@code docs/STREAMS.md} §10): an identify record over its size limit is
 * refused from its length prefix, and a ping stream fed a byte at a time is echoed in whole pings.
 */
class Libp2pHostileTest {
  private static final SecioConfig SERVER = JavaNodes.secio(KeyType.ED25519);
  private static final SecioConfig CLIENT = JavaNodes.secio(KeyType.SECP256K1);
  @AutoClose
  private static final JavaNodes nodes = new JavaNodes();

  /** Answers identify with a length prefix of 9,000 bytes and a little of them. */
  private static final class OversizedIdentify extends ChannelInboundHandlerAdapter {
    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {(byte) 0xa8, 0x46, 1, 2, 3}));
    }
  }

  @Test
  void anIdentifyRecordOverTheLimitIsRefusedFromItsPrefix() throws Exception {
    try (JavaNodes.Listener listener = nodes.listen(
        HandBuiltNode.serving(SERVER, Libp2pConfig.IDENTIFY, OversizedIdentify::new))) {
      Libp2pConfig config = Libp2pConfig.builder().muxers(Muxer.MPLEX).build();
      Channel ch = nodes.dial(listener.port(), Libp2p.client(CLIENT, config, SERVER.localPeerId()));
      try {
        Libp2pSession connection = Libp2pLoopbackTest.get(Libp2p.sessionFuture(ch));
        ExecutionException e = assertThrows(ExecutionException.class,
            () -> Libp2pLoopbackTest.get(connection.identify()));
        assertEquals(Libp2pException.Reason.IDENTIFY_TOO_LARGE,
            assertInstanceOf(Libp2pException.class, e.getCause()).reason());
        assertTrue(ch.isActive(), "one stream reset, the connection goes on");
      } finally {
        ch.close().sync();
      }
    }
  }

  @Test
  void aPingStreamFedAByteAtATimeIsEchoedInWholePings() throws Exception {
    try (JavaNodes.Listener listener = nodes.listen(
        () -> Libp2p.server(SERVER, Libp2pConfig.builder().muxers(Muxer.MPLEX).build()))) {
      Channel ch = nodes.dial(listener.port(),
          Libp2p.client(CLIENT, Libp2pConfig.builder().muxers(Muxer.MPLEX).build(), SERVER.localPeerId()));
      try {
        Libp2pSession connection = Libp2pLoopbackTest.get(Libp2p.sessionFuture(ch));
        Received received = new Received();
        StreamChannel stream = Libp2pLoopbackTest.get(connection.openStream(Libp2pConfig.PING, received));
        byte[] pings = new byte[64 + 7];
        new Random(71).nextBytes(pings);
        for (byte b : pings) {
          stream.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {b})).sync();
        }
        stream.shutdownOutput().sync();
        byte[] back = received.ended.get(JavaNodes.WAIT_MINUTES, TimeUnit.MINUTES);
        assertArrayEquals(java.util.Arrays.copyOf(pings, 64), back, "two whole pings; the 7 bytes after are no ping");
      } finally {
        ch.close().sync();
      }
    }
  }
}
