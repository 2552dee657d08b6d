package io.secio.benchmarks;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.ckb.Ckb;
import io.secio.ckb.CkbConfig;
import io.secio.ckb.CkbNetwork;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.multiaddr.Multiaddr;
import io.secio.netty.Transports;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;

/**
 * Our CKB listener on loopback and the dialers that reach it, for the CKB benchmarks: secio in
 * tentacle's dialect with secp256k1 keys, testnet, local addresses allowed; the listener's address
 * book holds one node, so each GetNodes is answered with one. One event loop thread per side.
 * Dialers take {@code clientKeys} identities in turn (a listener refuses a second session from a key
 * still connected). Closing stops both sides.
 */
final class CkbPeers implements AutoCloseable {
  private final EventLoopGroup serverGroup = Transports.best().newEventLoopGroup(1);
  private final EventLoopGroup clientGroup = Transports.best().newEventLoopGroup(1);
  private final Channel listener;
  private final Multiaddr address;
  private final CkbConfig clientConfig;
  private final SecioConfig[] clientSecio;
  private int next;

  CkbPeers(int clientKeys) throws InterruptedException {
    IdentityKeyPair serverKey = IdentityKeyPair.generate(KeyType.SECP256K1, new SecureRandom());
    CkbConfig serverConfig = CkbConfig.builder(CkbNetwork.TESTNET).localAddresses(true).build();
    serverConfig.addressBook().add(Multiaddr.parse("/ip4/18.217.146.65/tcp/8111"), 0x3f);
    SecioConfig serverSecio = secio(serverKey);
    listener = new ServerBootstrap().group(serverGroup).channel(Transports.best().serverChannelClass())
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(Ckb.server(serverSecio, serverConfig));
          }
        })
        .bind("127.0.0.1", 0).sync().channel();
    address = Multiaddr.of((InetSocketAddress) listener.localAddress()).withPeerId(Dialect.TENTACLE.peerId(serverKey.publicKey()));
    clientConfig = CkbConfig.builder(CkbNetwork.TESTNET).localAddresses(true).build();
    clientSecio = new SecioConfig[clientKeys];
    for (int i = 0; i < clientKeys; i++) {
      clientSecio[i] = secio(IdentityKeyPair.generate(KeyType.SECP256K1, new SecureRandom()));
    }
  }

  private static SecioConfig secio(IdentityKeyPair key) {
    return SecioConfig.builder(key).dialect(Dialect.TENTACLE).build();
  }

  /** A dialer's connection (its CKB session follows: {@code Ckb.sessionFuture}). */
  synchronized ChannelFuture dial() {
    SecioConfig secio = clientSecio[next++ % clientSecio.length];
    return new Bootstrap().group(clientGroup).channel(Transports.best().channelClass())
        .handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(Ckb.client(secio, clientConfig, address));
          }
        })
        .connect(listener.localAddress());
  }

  @Override
  public void close() {
    listener.close().syncUninterruptibly();
    clientGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    serverGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
