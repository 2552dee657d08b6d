package io.secio.ckb;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.multiaddr.Multiaddr;
import io.secio.netty.Transports;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Test-only: CKB peers on real loopback sockets with secio (tentacle dialect, secp256k1), each with
 * its own key; every channel opened is closed by {@link #close()}.
 */
public final class LoopbackNodes implements AutoCloseable {
  private final EventLoopGroup group = Transports.best().newEventLoopGroup(2);
  private final List<Channel> channels = new ArrayList<>();

  /** Peers on an event loop group of two threads. */
  public LoopbackNodes() {}

  /** A listener with {@code config}; returns the address to dial, its peer id included. */
  public Multiaddr listen(CkbConfig config) {
    IdentityKeyPair key = IdentityKeyPair.generate(KeyType.SECP256K1, new SecureRandom());
    Channel server = new ServerBootstrap().group(group).channel(Transports.best().serverChannelClass())
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(Ckb.server(secio(key), config));
          }
        })
        .bind("127.0.0.1", 0).syncUninterruptibly().channel();
    channels.add(server);
    return Multiaddr.of((InetSocketAddress) server.localAddress()).withPeerId(Dialect.TENTACLE.peerId(key.publicKey()));
  }

  /** Dials {@code address} with {@code config}; returns the connection. */
  public Channel dial(CkbConfig config, Multiaddr address) {
    IdentityKeyPair key = IdentityKeyPair.generate(KeyType.SECP256K1, new SecureRandom());
    Channel client = new Bootstrap().group(group).channel(Transports.best().channelClass())
        .handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(Ckb.client(secio(key), config, address));
          }
        })
        .connect(address.socketAddress().orElseThrow()).syncUninterruptibly().channel();
    channels.add(client);
    return client;
  }

  private static SecioConfig secio(IdentityKeyPair key) {
    return SecioConfig.builder(key).dialect(Dialect.TENTACLE).build();
  }

  /** A queue of every event a config's sessions hear. */
  static BlockingQueue<CkbEvent> events(CkbConfig.Builder builder) {
    BlockingQueue<CkbEvent> heard = new LinkedBlockingQueue<>();
    builder.listener((s, e) -> heard.add(e));
    return heard;
  }

  /** The next event of {@code type} (others skipped), within the hang guard; fails on a close first. */
  static <T extends CkbEvent> T next(BlockingQueue<CkbEvent> heard, Class<T> type) throws InterruptedException {
    while (true) {
      CkbEvent e = heard.poll(2, TimeUnit.MINUTES);
      if (e == null) {
        throw new AssertionError("no " + type.getSimpleName() + " within 2 minutes");
      }
      if (type.isInstance(e)) {
        return type.cast(e);
      }
      if (e instanceof CkbEvent.Closed closed) {
        throw new AssertionError("closed before " + type.getSimpleName() + ": " + closed.cause(), closed.cause());
      }
    }
  }

  @Override
  public void close() {
    for (Channel c : channels) {
      c.close().syncUninterruptibly();
    }
    group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
