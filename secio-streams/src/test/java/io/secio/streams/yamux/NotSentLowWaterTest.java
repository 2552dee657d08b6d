package io.secio.streams.yamux;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.secio.streams.StreamChannel;
import io.secio.streams.StreamChannelBootstrap;
import io.secio.streams.TestStreams;
import io.secio.streams.mplex.MplexConfig;
import io.secio.streams.mplex.MplexHandler;
import io.secio.testsupport.Echo;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The muxers lower their connection socket's {@code TCP_NOTSENT_LOWAT} ({@code docs/STREAMS.md} §3),
 * on real native epoll sockets on loopback: to the config's value on both ends, never above a lower
 * value already set, not at all with 0; a transport without the option (NIO, embedded) is left alone;
 * and many streams' bytes still all come back under the lowered mark. Hang guards are minutes.
 */
@SuppressWarnings("deprecation") // EpollEventLoopGroup and NioEventLoopGroup: the API both Netty 4.1 and 4.2 have
class NotSentLowWaterTest {
  private static final long GUARD_MINUTES = 5;
  private static EventLoopGroup epoll;
  private static EventLoopGroup nio;

  @BeforeAll
  static void start() {
    // Never skipped: CI runs on Linux x86-64, where native epoll loads.
    assertTrue(Epoll.isAvailable(), () -> "native epoll: " + Epoll.unavailabilityCause());
    epoll = new EpollEventLoopGroup(2);
    nio = new NioEventLoopGroup(1);
  }

  @AfterAll
  static void stop() {
    epoll.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
    nio.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** Both ends of one epoll connection, each with the muxer handler {@code muxer} makes. */
  private record Pair(Channel listener, Channel client, CompletableFuture<Channel> server) implements AutoCloseable {
    static Pair of(Supplier<ChannelHandler> serverMuxer, Supplier<ChannelHandler> clientMuxer, Long clientOption) {
      CompletableFuture<Channel> server = new CompletableFuture<>();
      Channel listener = new ServerBootstrap().group(epoll).channel(EpollServerSocketChannel.class)
          .childHandler(new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
              ch.pipeline().addLast(serverMuxer.get());
              server.complete(ch);
            }
          }).bind("127.0.0.1", 0).syncUninterruptibly().channel();
      Bootstrap b = new Bootstrap().group(epoll).channel(EpollSocketChannel.class).handler(clientMuxer.get());
      if (clientOption != null) {
        b.option(EpollChannelOption.TCP_NOTSENT_LOWAT, clientOption);
      }
      return new Pair(listener, b.connect(listener.localAddress()).syncUninterruptibly().channel(), server);
    }

    Channel serverChannel() throws Exception {
      return server.get(GUARD_MINUTES, TimeUnit.MINUTES);
    }

    @Override
    public void close() {
      client.close().syncUninterruptibly();
      listener.close().syncUninterruptibly();
    }
  }

  private static long lowWater(Channel ch) throws Exception {
    // Read on the channel's own loop, after the handler's own work there.
    return ch.eventLoop().submit(() -> ((EpollSocketChannel) ch).config().getTcpNotSentLowAt())
        .get(GUARD_MINUTES, TimeUnit.MINUTES);
  }

  /** What a socket holds before anyone sets it: 0, no value of its own (the system's applies). */
  private static long unset() {
    EpollSocketChannel fresh = new EpollSocketChannel();
    try {
      return fresh.config().getTcpNotSentLowAt();
    } finally {
      fresh.unsafe().closeForcibly();
    }
  }

  @Test
  void yamuxLowersItOnBothEndsByDefault() throws Exception {
    assertEquals(16 * 1024, YamuxConfig.tentacle().notSentLowWater());
    assertEquals(16 * 1024, YamuxConfig.libp2p().notSentLowWater());
    assertEquals(0, unset(), "a new socket has no value of its own");
    try (Pair p = Pair.of(() -> YamuxHandler.server(YamuxConfig.libp2p(), Echo.allowingHalfClosure()),
        () -> YamuxHandler.client(YamuxConfig.libp2p(), null), null)) {
      assertEquals(16 * 1024, lowWater(p.client()));
      assertEquals(16 * 1024, lowWater(p.serverChannel()));
    }
  }

  @Test
  void mplexLowersItToItsConfiguredValue() throws Exception {
    MplexConfig config = MplexConfig.builder().notSentLowWater(64 * 1024).build();
    try (Pair p = Pair.of(() -> MplexHandler.create(config, Echo.allowingHalfClosure()),
        () -> MplexHandler.create(MplexConfig.defaults(), null), null)) {
      assertEquals(16 * 1024, lowWater(p.client()));
      assertEquals(64 * 1024, lowWater(p.serverChannel()));
    }
  }

  @Test
  void aLowerValueAlreadySetStaysAndZeroLeavesTheSocketAlone() throws Exception {
    YamuxConfig untouched = YamuxConfig.tentacle().toBuilder().notSentLowWater(0).build();
    try (Pair p = Pair.of(() -> YamuxHandler.server(untouched, Echo.allowingHalfClosure()),
        () -> YamuxHandler.client(YamuxConfig.tentacle(), null), 4096L)) {
      assertEquals(4096, lowWater(p.client()), "the user's lower value");
      assertEquals(0, lowWater(p.serverChannel()), "0: the socket as it was");
    }
  }

  @Test
  void sixtyFourStreamsEchoEveryByteUnderTheLoweredMark() throws Exception {
    YamuxConfig config = YamuxConfig.tentacle().toBuilder().sessionWindow(128L * 1024 * 1024).build();
    try (Pair p = Pair.of(() -> YamuxHandler.server(config, Echo.allowingHalfClosure()),
        () -> YamuxHandler.client(config, null), null)) {
      List<TestStreams.Receive> receives = new ArrayList<>();
      List<byte[]> digests = new ArrayList<>();
      for (int i = 0; i < 64; i++) {
        TestStreams.Receive r = new TestStreams.Receive();
        StreamChannel s = new StreamChannelBootstrap(p.client()).handler(r)
            .option(ChannelOption.ALLOW_HALF_CLOSURE, true).open().get(GUARD_MINUTES, TimeUnit.MINUTES);
        byte[] data = TestStreams.pattern(2 * 1024 * 1024 + i, i);
        receives.add(r);
        digests.add(MessageDigest.getInstance("SHA-256").digest(data));
        TestStreams.send(s, data);
      }
      for (int i = 0; i < 64; i++) {
        assertArrayEquals(digests.get(i), receives.get(i).digest.get(GUARD_MINUTES, TimeUnit.MINUTES), "stream " + i);
        assertEquals(2 * 1024 * 1024 + i, receives.get(i).bytes);
      }
      assertEquals(16 * 1024, lowWater(p.client()));
    }
  }

  @Test
  void aTransportWithoutTheOptionIsLeftAloneAndWorks() throws Exception {
    Channel listener = new ServerBootstrap().group(nio).channel(NioServerSocketChannel.class)
        .childHandler(YamuxHandler.server(YamuxConfig.tentacle(), Echo.allowingHalfClosure()))
        .bind("127.0.0.1", 0).syncUninterruptibly().channel();
    Channel client = new Bootstrap().group(nio).channel(NioSocketChannel.class)
        .handler(YamuxHandler.client(YamuxConfig.tentacle(), null)).connect(listener.localAddress())
        .syncUninterruptibly().channel();
    try {
      TestStreams.Receive r = new TestStreams.Receive();
      StreamChannel s = new StreamChannelBootstrap(client).handler(r).option(ChannelOption.ALLOW_HALF_CLOSURE, true)
          .open().get(GUARD_MINUTES, TimeUnit.MINUTES);
      byte[] data = TestStreams.pattern(100_000, 7);
      TestStreams.send(s, data);
      assertArrayEquals(MessageDigest.getInstance("SHA-256").digest(data),
          r.digest.get(GUARD_MINUTES, TimeUnit.MINUTES));
    } finally {
      client.close().syncUninterruptibly();
      listener.close().syncUninterruptibly();
    }
    EmbeddedChannel embedded = new EmbeddedChannel(MplexHandler.create(MplexConfig.defaults(), null));
    assertTrue(embedded.isActive());
    embedded.finishAndReleaseAll();
  }

  @Test
  void aNegativeValueIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> YamuxConfig.builder().notSentLowWater(-1).build());
    assertThrows(IllegalArgumentException.class, () -> MplexConfig.builder().notSentLowWater(-1).build());
    assertEquals(1234, YamuxConfig.libp2p().toBuilder().notSentLowWater(1234).build().toBuilder().build()
        .notSentLowWater());
    assertEquals(1234, MplexConfig.builder().notSentLowWater(1234).build().toBuilder().build().notSentLowWater());
  }
}
