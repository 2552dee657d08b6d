package io.secio.tentacle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.netty.Transports;
import io.secio.streams.StreamChannel;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The whole stack on real loopback sockets ({@code docs/STREAMS.md} §8.5): secio in the tentacle
 * dialect with secp256k1 keys, yamux in tentacle's profile, protocol-select, our client to our
 * server. Several sessions at once, each opening the echo protocol with the version chosen each way
 * and echoing messages up to 1 MiB, checked byte for byte; a second session from a key already
 * connected is refused by the server.
 */
class LoopbackTest {
  private static final Duration HANG_GUARD = Duration.ofMinutes(2);
  private static final List<Integer> SIZES = List.of(0, 1, 1000, 65536, 300000, 1 << 20);
  private static EventLoopGroup group;

  @BeforeAll
  static void start() {
    group = Transports.best().newEventLoopGroup(2);
  }

  @AfterAll
  static void stop() {
    group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
  }

  private static SecioConfig secio(IdentityKeyPair identity) {
    return SecioConfig.builder(identity).dialect(Dialect.TENTACLE).build();
  }

  private record Server(Channel channel, PeerId peer, BlockingQueue<Channel> accepted) {}

  private static Server server() {
    IdentityKeyPair identity = IdentityKeyPair.generate(KeyType.SECP256K1, new SecureRandom());
    SecioConfig secio = secio(identity);
    TentacleConfig config = TentacleConfig.builder()
        .protocol(TentacleProtocol.of(TestProtocols.ECHO, List.of("1", "2"), new TestProtocols.Echo()))
        .build();
    BlockingQueue<Channel> accepted = new LinkedBlockingQueue<>();
    Channel channel = new ServerBootstrap().group(group).channel(Transports.best().serverChannelClass())
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(Tentacle.server(secio, config));
            accepted.add(ch);
          }
        })
        .bind("127.0.0.1", 0).syncUninterruptibly().channel();
    return new Server(channel, Dialect.TENTACLE.peerId(identity.publicKey()), accepted);
  }

  private static Channel dial(Server server, IdentityKeyPair identity, TestProtocols.Collect collect) {
    TentacleConfig config = TentacleConfig.builder()
        .protocol(TentacleProtocol.of(TestProtocols.ECHO, List.of("1", "2"), collect))
        .build();
    return new Bootstrap().group(group).channel(Transports.best().channelClass())
        .handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(Tentacle.client(secio(identity), config, server.peer()));
          }
        })
        .connect((InetSocketAddress) server.channel().localAddress()).syncUninterruptibly().channel();
  }

  @Test
  void severalSessionsEchoMessagesUpTo1MiBWithTheVersionChosenEachWay() {
    assertTimeoutPreemptively(HANG_GUARD, () -> {
      Server server = server();
      try {
        List<Channel> clients = new ArrayList<>();
        List<TestProtocols.Collect> collects = new ArrayList<>();
        List<StreamChannel> streams = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
          TestProtocols.Collect collect = new TestProtocols.Collect();
          Channel client = dial(server, IdentityKeyPair.generate(KeyType.SECP256K1, new SecureRandom()), collect);
          TentacleSession session = Tentacle.awaitSession(client);
          List<String> offer = i % 2 == 0 ? List.of("2", "1") : List.of("1", "2");
          StreamChannel echo = session.openStream(TestProtocols.ECHO, offer, collect).get(2, TimeUnit.MINUTES);
          assertEquals(i % 2 == 0 ? "1" : "2", Tentacle.protocol(echo).orElseThrow().version().orElseThrow(),
              "offer " + offer + " against [1, 2]");
          clients.add(client);
          collects.add(collect);
          streams.add(echo);
        }
        Random random = new Random(23);
        List<List<byte[]>> sent = new ArrayList<>();
        for (StreamChannel echo : streams) {
          List<byte[]> messages = new ArrayList<>();
          for (int size : SIZES) {
            byte[] m = new byte[size];
            random.nextBytes(m);
            messages.add(m);
            echo.write(Unpooled.wrappedBuffer(m));
          }
          echo.flush();
          sent.add(messages);
        }
        for (int i = 0; i < streams.size(); i++) {
          for (byte[] m : sent.get(i)) {
            byte[] back = collects.get(i).messages.poll(2, TimeUnit.MINUTES);
            assertArrayEquals(m, back, "session " + i + ", a message of " + m.length + " bytes");
          }
        }
        for (Channel client : clients) {
          Tentacle.sessionFuture(client).getNow().close().get(2, TimeUnit.MINUTES);
        }
      } finally {
        server.channel().close().syncUninterruptibly();
      }
    });
  }

  @Test
  void aSecondSessionFromAConnectedKeyIsRefused() {
    assertTimeoutPreemptively(HANG_GUARD, () -> {
      Server server = server();
      try {
        IdentityKeyPair key = IdentityKeyPair.generate(KeyType.SECP256K1, new SecureRandom());
        Channel first = dial(server, key, new TestProtocols.Collect());
        TentacleSession session = Tentacle.sessionFuture(first).get(2, TimeUnit.MINUTES);
        session.openStream(TestProtocols.ECHO, new TestProtocols.Collect()).get(2, TimeUnit.MINUTES);
        Channel acceptedFirst = server.accepted().poll(2, TimeUnit.MINUTES);
        Tentacle.sessionFuture(acceptedFirst).get(2, TimeUnit.MINUTES);

        Channel second = dial(server, key, new TestProtocols.Collect());
        Channel acceptedSecond = server.accepted().poll(2, TimeUnit.MINUTES);
        ExecutionException refused = assertThrows(ExecutionException.class,
            () -> Tentacle.sessionFuture(acceptedSecond).get(2, TimeUnit.MINUTES));
        assertEquals(TentacleException.Reason.DUPLICATE_SESSION,
            assertInstanceOf(TentacleException.class, refused.getCause()).reason());
        second.closeFuture().get(2, TimeUnit.MINUTES);
        assertTrue(first.isActive(), "the first session goes on");

        // Once the first session ends, the key may connect again.
        session.close().get(2, TimeUnit.MINUTES);
        acceptedFirst.closeFuture().get(2, TimeUnit.MINUTES);
        Channel third = dial(server, key, new TestProtocols.Collect());
        Tentacle.awaitSession(third).openStream(TestProtocols.ECHO, new TestProtocols.Collect()).get(2, TimeUnit.MINUTES);
        Tentacle.sessionFuture(server.accepted().poll(2, TimeUnit.MINUTES)).get(2, TimeUnit.MINUTES);
        third.close().get(2, TimeUnit.MINUTES);
      } finally {
        server.channel().close().syncUninterruptibly();
      }
    });
  }
}
