package io.secio.websocket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import io.secio.netty.Secio;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Java to Java over WebSocket on real loopback sockets: secio alone in each dialect (with
 * application bytes written before either handshake is done, so they wait in both stages), and a
 * tentacle session; the pipelines after the handshake; close frames both ways.
 */
class WebSocketLoopbackTest {
  private static final List<Integer> SIZES = List.of(1, 1000, 64 * 1024 + 7, 3 * 1024 * 1024 + 5);
  private static final Loopback LOOPBACK = new Loopback();

  @AfterAll
  static void stop() {
    LOOPBACK.close();
  }

  @ParameterizedTest
  @EnumSource(Dialect.class)
  void secioEchoesBytesWrittenBeforeTheHandshakes(Dialect dialect) throws Exception {
    IdentityKeyPair serverKey = Stacks.identity(dialect);
    SecioConfig server = Stacks.secio(dialect, serverKey);
    SecioConfig client = Stacks.secio(dialect, Stacks.identity(dialect));
    Channel listener = LOOPBACK.listen(ch -> ch.pipeline().addLast(WebSocket.server("/"), Secio.server(server),
        new Loopback.Echo()));
    try {
      Loopback.Collect collect = new Loopback.Collect();
      byte[] sent = new byte[SIZES.stream().mapToInt(Integer::intValue).sum()];
      new Random(7).nextBytes(sent);
      Channel ch = LOOPBACK.dial(listener, c -> {
        c.pipeline().addLast(WebSocket.client(Loopback.uri(listener)),
            Secio.client(client, dialect.peerId(serverKey.publicKey())), collect);
        int at = 0;
        for (int size : SIZES) {
          c.write(Unpooled.wrappedBuffer(sent, at, size));
          at += size;
        }
        c.flush();
      });
      assertFalse(WebSocket.handshakeFuture(ch).isDone(), "the dial has only just begun");
      assertArrayEquals(sent, collect.bytes(sent.length));
      assertTrue(WebSocket.handshakeFuture(ch).isSuccess());
      assertEquals(List.of(WebSocket.ENCODER_NAME, WebSocket.DECODER_NAME, WebSocket.HANDLER_NAME,
          Secio.DECODER_NAME, Secio.HANDLER_NAME), ch.pipeline().names().subList(0, 5));
      assertTrue(ch.pipeline().get(WebSocket.HANDLER_NAME) instanceof BinaryStream);
      ch.close().sync();
      assertFalse(collect.failure.isDone(), () -> "failed: " + collect.failure.getNow(null));
    } finally {
      listener.close().sync();
    }
  }

  @Test
  void tentacleSessionEchoesMessagesAndTheServerSeesTheClientsCloseFrame() throws Exception {
    IdentityKeyPair serverKey = Stacks.identity(Dialect.TENTACLE);
    SecioConfig server = Stacks.secio(Dialect.TENTACLE, serverKey);
    BlockingQueue<Channel> accepted = new LinkedBlockingQueue<>();
    Channel listener = LOOPBACK.listen(ch -> {
      ch.pipeline().addLast(WebSocket.server("/"), Stacks.tentacleServer(server));
      accepted.add(ch);
    });
    try {
      Stacks.Messages messages = new Stacks.Messages();
      Channel ch = LOOPBACK.dial(listener, c -> c.pipeline().addLast(WebSocket.client(Loopback.uri(listener)),
          Stacks.tentacleClient(Stacks.secio(Dialect.TENTACLE, Stacks.identity(Dialect.TENTACLE)),
              Dialect.TENTACLE.peerId(serverKey.publicKey()), messages)));
      Channel echo = Stacks.openEcho(ch, messages);
      Random random = new Random(11);
      for (int size : SIZES) {
        byte[] m = new byte[size];
        random.nextBytes(m);
        echo.writeAndFlush(Unpooled.wrappedBuffer(m));
        assertArrayEquals(m, messages.next(), size + " bytes");
      }
      Channel serverSide = accepted.poll(Loopback.WAIT_MINUTES, TimeUnit.MINUTES);
      assertTrue(WebSocket.handshakeFuture(serverSide).isSuccess());
      ch.close().sync();
      assertTrue(serverSide.closeFuture().await(Loopback.WAIT_MINUTES, TimeUnit.MINUTES),
          "the server closes once the session has ended");
    } finally {
      listener.close().sync();
    }
  }
}
