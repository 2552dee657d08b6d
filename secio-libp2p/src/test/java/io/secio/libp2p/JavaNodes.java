package io.secio.libp2p;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.secio.SecioConfig;
import io.secio.identity.KeyType;
import io.secio.netty.Transports;
import io.secio.testing.TestIdentities;
import java.net.InetSocketAddress;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** Java libp2p listeners and dialers on loopback for the tests; one event loop group for all. */
final class JavaNodes implements AutoCloseable {
  static final long WAIT_MINUTES = 2;
  /** The echo protocol the tests serve with test-support's {@code Echo}. */
  static final String ECHO = "/echo/1.0.0";
  static final Transports TRANSPORT = Transports.best();

  final EventLoopGroup group = TRANSPORT.newEventLoopGroup(2);

  static SecioConfig secio(KeyType type) {
    return SecioConfig.builder(TestIdentities.of(type)).build();
  }

  static SecioConfig otherSecio(KeyType type) {
    return SecioConfig.builder(TestIdentities.other(type)).build();
  }

  /** A listener; each accepted connection's channel goes to {@code accepted}. */
  final class Listener implements AutoCloseable {
    final Channel channel;
    final BlockingQueue<Channel> accepted = new LinkedBlockingQueue<>();

    Listener(Supplier<ChannelHandler> handler) throws InterruptedException {
      channel = new ServerBootstrap().group(group).channel(TRANSPORT.serverChannelClass())
          .childHandler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              ch.pipeline().addLast(handler.get());
              accepted.add(ch);
            }
          })
          .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
    }

    int port() {
      return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    Channel next() throws InterruptedException {
      Channel ch = accepted.poll(WAIT_MINUTES, TimeUnit.MINUTES);
      if (ch == null) {
        throw new AssertionError("hang guard: no connection accepted");
      }
      return ch;
    }

    @Override
    public void close() {
      channel.close().syncUninterruptibly();
    }
  }

  Listener listen(Supplier<ChannelHandler> handler) throws InterruptedException {
    return new Listener(handler);
  }

  Channel dial(int port, ChannelHandler handler) throws InterruptedException {
    return new Bootstrap().group(group).channel(TRANSPORT.channelClass()).handler(handler)
        .connect(new InetSocketAddress("127.0.0.1", port)).sync().channel();
  }

  @Override
  public void close() {
    group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
