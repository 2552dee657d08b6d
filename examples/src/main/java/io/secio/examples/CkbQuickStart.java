package io.secio.examples;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.ckb.AddressBook;
import io.secio.ckb.Ckb;
import io.secio.ckb.CkbConfig;
import io.secio.ckb.CkbSession;
import io.secio.ckb.protocol.CkbNetwork;
import io.secio.ckb.protocol.IdentifyFlags;
import io.secio.ckb.protocol.Node;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.multiaddr.Multiaddr;
import io.secio.netty.Transports;
import io.secio.websocket.WebSocket;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A CKB listener and a client in one process, with testnet's identify name: the listener takes TCP
 * and WebSocket dialers on one port, as a CKB node does; the client dials it over TCP, identifies,
 * asks for the nodes it knows, and says goodbye.
 */
public final class CkbQuickStart {
  public static void main(String[] args) throws Exception {
    System.out.println(run());
  }

  /** Runs the listener and the client; what the client learned of the listener. */
  static String run() throws Exception {
    SecureRandom random = new SecureRandom();
    // CKB's peers: secp256k1 identities, secio's tentacle dialect.
    SecioConfig server = SecioConfig.builder(IdentityKeyPair.generate(KeyType.SECP256K1, random))
        .dialect(Dialect.TENTACLE).build();
    SecioConfig client = SecioConfig.builder(IdentityKeyPair.generate(KeyType.SECP256K1, random))
        .dialect(Dialect.TENTACLE).build();
    // The listener answers a GetNodes from its address book: here one node it knows.
    AddressBook book = new AddressBook();
    book.add(Multiaddr.parse("/ip4/192.0.2.1/tcp/8111"), IdentifyFlags.DISCOVERY);
    CkbConfig listening = CkbConfig.builder(CkbNetwork.TESTNET).addressBook(book).build();
    CkbConfig dialing = CkbConfig.builder(CkbNetwork.TESTNET).build();
    Transports transport = Transports.best();
    EventLoopGroup group = transport.newEventLoopGroup(0);
    try {
      Channel listener = new ServerBootstrap().group(group).channel(transport.serverChannelClass())
          .childHandler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              // One port for TCP and WebSocket (a browser's light client) dialers, as a CKB node's.
              ch.pipeline().addLast(WebSocket.serverOrTcp("/"), Ckb.server(server, listening));
            }
          })
          .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
      int port = ((InetSocketAddress) listener.localAddress()).getPort();
      // The client accepts only the node its address names (/p2p/: the listener's tentacle peer id).
      Multiaddr node = Multiaddr.parse("/ip4/127.0.0.1/tcp/" + port + "/p2p/" + server.localPeerId());
      Channel channel = new Bootstrap().group(group).channel(transport.channelClass())
          .handler(Ckb.client(client, dialing, node))
          .connect(listener.localAddress()).sync().channel();
      CkbSession session = Ckb.sessionFuture(channel).get(30, TimeUnit.SECONDS); // its Identify accepted
      List<Node> nodes = session.nodes().get(30, TimeUnit.SECONDS); // its answer to our GetNodes
      String line = "identified " + session.identify() + ", its nodes " + nodes;
      session.disconnect("bye").sync(); // the reason on /ckb/disconnectmsg, then the close
      listener.close().sync();
      return line;
    } finally {
      group.shutdownGracefully().sync();
    }
  }
}
