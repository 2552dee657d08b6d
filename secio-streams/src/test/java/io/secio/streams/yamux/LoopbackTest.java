package io.secio.streams.yamux;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.secio.streams.CollectedStream;
import io.secio.streams.StreamChannel;
import io.secio.streams.StreamChannelBootstrap;
import io.secio.streams.TestStreams;
import io.secio.testsupport.Collect;
import io.secio.testsupport.Echo;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * yamux between two real sockets on loopback, both profiles ({@code docs/STREAMS.md} §3): an echo
 * listener, a dialer that sends, half-closes and checks every byte that comes back. Hang guards are
 * minutes; nothing here measures time.
 */
class LoopbackTest {
  private static final long GUARD_MINUTES = 5;
  private static EventLoopGroup group;

  @BeforeAll
  static void start() {
    group = new NioEventLoopGroup(2);
  }

  @AfterAll
  static void stop() {
    group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
  }

  private static Channel listen(YamuxConfig config) {
    return new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
        .childHandler(new ChannelInitializer<>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(YamuxHandler.server(config, Echo.allowingHalfClosure()));
          }
        }).bind("127.0.0.1", 0).syncUninterruptibly().channel();
  }

  private static Channel dial(Channel server, YamuxConfig config) {
    return new Bootstrap().group(group).channel(NioSocketChannel.class)
        .handler(YamuxHandler.client(config, null)).connect(server.localAddress()).syncUninterruptibly().channel();
  }

  private static void echoes(YamuxConfig config, int streams, int bytesPerStream) throws Exception {
    Channel server = listen(config);
    Channel client = dial(server, config);
    try {
      List<TestStreams.Receive> receives = new ArrayList<>();
      List<byte[]> sent = new ArrayList<>();
      for (int i = 0; i < streams; i++) {
        TestStreams.Receive r = new TestStreams.Receive();
        StreamChannel s = new StreamChannelBootstrap(client).handler(r).option(ChannelOption.ALLOW_HALF_CLOSURE, true)
            .open().get(GUARD_MINUTES, TimeUnit.MINUTES);
        byte[] data = new byte[bytesPerStream];
        new Random(i).nextBytes(data);
        receives.add(r);
        sent.add(MessageDigest.getInstance("SHA-256").digest(data));
        TestStreams.send(s, data);
      }
      for (int i = 0; i < streams; i++) {
        assertArrayEquals(sent.get(i), receives.get(i).digest.get(GUARD_MINUTES, TimeUnit.MINUTES), "stream " + i);
        assertEquals(bytesPerStream, receives.get(i).bytes);
      }
    } finally {
      client.close().syncUninterruptibly();
      server.close().syncUninterruptibly();
    }
  }

  @Test
  void sixtyFourMebibytesEchoedOnOneTentacleStream() throws Exception {
    echoes(YamuxConfig.tentacle(), 1, 64 * 1024 * 1024);
  }

  @Test
  void aHundredStreamsAtOnceOnLibp2p() throws Exception {
    echoes(YamuxConfig.libp2p(), 100, 1024 * 1024);
  }

  @Test
  void aHundredStreamsAtOnceOnTentacleWithItsStreamCapRaised() throws Exception {
    echoes(YamuxConfig.tentacle().toBuilder().maxStreams(128).sessionWindow(128L * 1024 * 1024).build(), 100,
        512 * 1024);
  }

  @Test
  void closingTheConnectionEndsItsStreamsOnBothSidesInOrder() throws Exception {
    BlockingQueue<CollectedStream> accepted = new LinkedBlockingQueue<>();
    Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
        .childHandler(new ChannelInitializer<>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(YamuxHandler.server(YamuxConfig.tentacle(),
                CollectedStream.into(accepted)));
          }
        }).bind("127.0.0.1", 0).syncUninterruptibly().channel();
    Channel client = dial(server, YamuxConfig.tentacle());
    try {
      TestStreams.Receive r = new TestStreams.Receive();
      StreamChannel s = new StreamChannelBootstrap(client).handler(r).open().get(GUARD_MINUTES, TimeUnit.MINUTES);
      s.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1, 2, 3})).get(GUARD_MINUTES, TimeUnit.MINUTES);
      client.close().syncUninterruptibly(); // GoAway 0 after the bytes: the peer gets both, in order
      r.digest.get(GUARD_MINUTES, TimeUnit.MINUTES);
      Collect in = accepted.poll(GUARD_MINUTES, TimeUnit.MINUTES).collect();
      in.awaitInactive();
      assertTrue(in.exceptions().isEmpty(), "an orderly end: " + in.exceptions());
      assertArrayEquals(new byte[] {1, 2, 3}, in.received());
    } finally {
      server.close().syncUninterruptibly();
    }
  }
}
