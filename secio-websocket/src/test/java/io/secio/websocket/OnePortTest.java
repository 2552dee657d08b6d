package io.secio.websocket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * One listener port for TCP and WebSocket, as a CKB node's, on real loopback sockets: tentacle
 * dialers over plain TCP and over WebSocket connect to it at once, each session echoes its
 * messages, and the listener's side of each runs the transport its dialer chose.
 */
class OnePortTest {
  private static final Loopback LOOPBACK = new Loopback();

  @AfterAll
  static void stop() {
    LOOPBACK.close();
  }

  @Test
  void tcpAndWebSocketDialersShareOnePort() throws Exception {
    IdentityKeyPair serverKey = Stacks.identity(Dialect.TENTACLE);
    SecioConfig server = Stacks.secio(Dialect.TENTACLE, serverKey);
    BlockingQueue<Channel> accepted = new LinkedBlockingQueue<>();
    Channel listener = LOOPBACK.listen(ch -> {
      ch.pipeline().addLast(WebSocket.serverOrTcp("/"), Stacks.tentacleServer(server));
      accepted.add(ch);
    });
    try {
      List<Channel> dialers = new ArrayList<>();
      List<Stacks.Messages> received = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        boolean ws = i % 2 == 1;
        Stacks.Messages messages = new Stacks.Messages();
        SecioConfig client = Stacks.secio(Dialect.TENTACLE, Stacks.identity(Dialect.TENTACLE));
        dialers.add(LOOPBACK.dial(listener, ch -> {
          if (ws) {
            ch.pipeline().addLast(WebSocket.client(Loopback.uri(listener)));
          }
          ch.pipeline().addLast(Stacks.tentacleClient(client, Dialect.TENTACLE.peerId(serverKey.publicKey()), messages));
        }));
        received.add(messages);
      }
      List<Channel> streams = new ArrayList<>();
      for (int i = 0; i < dialers.size(); i++) {
        streams.add(Stacks.openEcho(dialers.get(i), received.get(i)));
      }
      Random random = new Random(5);
      for (int round = 0; round < 3; round++) {
        List<byte[]> sent = new ArrayList<>();
        for (Channel stream : streams) {
          byte[] m = new byte[random.nextInt(200_000)];
          random.nextBytes(m);
          sent.add(m);
          stream.writeAndFlush(Unpooled.wrappedBuffer(m));
        }
        for (int i = 0; i < streams.size(); i++) {
          assertArrayEquals(sent.get(i), received.get(i).next(), "dialer " + i + ", round " + round);
        }
      }
      int webSockets = 0;
      for (int i = 0; i < dialers.size(); i++) {
        Channel side = accepted.poll(Loopback.WAIT_MINUTES, TimeUnit.MINUTES);
        webSockets += WebSocket.isWebSocket(side) ? 1 : 0;
      }
      assertEquals(3, webSockets, "three of the six accepted connections run WebSocket");
      for (Channel dialer : dialers) {
        dialer.close().sync();
      }
    } finally {
      listener.close().sync();
    }
  }
}
