package com.example.ckb;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.ckb.AddressBook;
import io.secio.ckb.Ckb;
import io.secio.ckb.CkbConfig;
import io.secio.ckb.CkbSession;
import io.secio.ckb.protocol.CkbNetwork;
import io.secio.ckb.protocol.CkbProtocol;
import io.secio.ckb.protocol.IdentifyFlags;
import io.secio.ckb.protocol.Node;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.multiaddr.Multiaddr;
import io.secio.netty.Transports;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A CKB listener and a dialer on loopback, as a user's module runs them: the dialer identifies, gets
 * the listener's one node, and sends 4 KiB on the alert protocol, which the compress codec sends as
 * a snappy block (it compresses what is over 1 KiB and shrinks) and the listener reads back.
 */
public final class CkbPeers {
  private static final long GUARD_SECONDS = 300;
  private static final int ALERT_BYTES = 4096;

  private CkbPeers() {}

  /** Sends {@link #ALERT_BYTES} zeros when the stream opens. */
  @ChannelHandler.Sharable
  static final class Sender extends ChannelInboundHandlerAdapter {
    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[ALERT_BYTES]));
      ctx.fireChannelActive();
    }
  }

  /** Completes with the length of the first message. */
  @ChannelHandler.Sharable
  static final class Receiver extends ChannelInboundHandlerAdapter {
    final CompletableFuture<Integer> length = new CompletableFuture<>();

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf message = (ByteBuf) msg;
      length.complete(message.readableBytes());
      message.release();
    }
  }

  public static void main(String[] args) throws Exception {
    SecureRandom random = new SecureRandom();
    SecioConfig server = SecioConfig.builder(IdentityKeyPair.generate(KeyType.SECP256K1, random))
        .dialect(Dialect.TENTACLE).build();
    SecioConfig client = SecioConfig.builder(IdentityKeyPair.generate(KeyType.SECP256K1, random))
        .dialect(Dialect.TENTACLE).build();
    AddressBook book = new AddressBook();
    book.add(Multiaddr.parse("/ip4/192.0.2.1/tcp/8111"), IdentifyFlags.DISCOVERY);
    Receiver receiver = new Receiver();
    CkbConfig serverConfig = CkbConfig.builder(CkbNetwork.TESTNET).addressBook(book)
        .protocol(CkbProtocol.ALERT, receiver).build();
    CkbConfig clientConfig = CkbConfig.builder(CkbNetwork.TESTNET)
        .protocol(CkbProtocol.ALERT, new Sender()).build();
    Transports transport = Transports.best();
    EventLoopGroup group = transport.newEventLoopGroup(2);
    try {
      Channel listener = new ServerBootstrap().group(group).channel(transport.serverChannelClass())
          .childHandler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              ch.pipeline().addLast(Ckb.server(server, serverConfig));
            }
          })
          .bind("127.0.0.1", 0).sync().channel();
      int port = ((InetSocketAddress) listener.localAddress()).getPort();
      Multiaddr address = Multiaddr.parse("/ip4/127.0.0.1/tcp/" + port + "/p2p/" + server.localPeerId());
      Channel channel = new Bootstrap().group(group).channel(transport.channelClass())
          .handler(Ckb.client(client, clientConfig, address))
          .connect("127.0.0.1", port).sync().channel();
      CkbSession session = Ckb.sessionFuture(channel).get(GUARD_SECONDS, TimeUnit.SECONDS);
      System.out.println("identified " + session.identify().name());
      System.out.println("client version " + session.identify().clientVersion());
      List<Node> nodes = session.nodes().get(GUARD_SECONDS, TimeUnit.SECONDS);
      System.out.println("nodes " + nodes.size());
      System.out.println("alert " + receiver.length.get(GUARD_SECONDS, TimeUnit.SECONDS) + " bytes");
      Module snappy = Class.forName("io.netty.handler.codec.compression.Snappy").getModule();
      System.out.println("snappy in " + snappy.getName());
      session.disconnect("done").await(GUARD_SECONDS, TimeUnit.SECONDS);
      listener.close().sync();
    } finally {
      group.shutdownGracefully(0, 0, TimeUnit.SECONDS).sync();
    }
  }
}
