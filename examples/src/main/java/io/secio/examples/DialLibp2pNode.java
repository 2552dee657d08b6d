package io.secio.examples;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.libp2p.Libp2p;
import io.secio.libp2p.Libp2pConfig;
import io.secio.libp2p.Libp2pSession;
import io.secio.libp2p.Muxer;
import io.secio.netty.Transports;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Dials a libp2p node the way libp2p does and pings it, with {@code secio-libp2p}: multistream-select
 * picks {@code /secio/1.0.0}, secio secures the connection, a second multistream-select inside it
 * picks the muxer ({@code /mplex/6.7.0}, which js-libp2p 0.29 speaks, or {@code /yamux/1.0.0}), and a
 * stream negotiated for {@code /ipfs/ping/1.0.0} carries 32 random bytes that the node echoes.
 *
 * <pre>
 * java -cp examples/target/secio.jar io.secio.examples.DialLibp2pNode 127.0.0.1 4001 QmNodePeerId...
 * </pre>
 *
 * <p>The connection is set up before it exists, in one handler; each stage waits for the one before
 * it, and {@link Libp2p#awaitSession} returns once the muxer is agreed (or throws why not).
 */
public final class DialLibp2pNode {
  private DialLibp2pNode() {}

  /** The secured session and the ping's round trip. */
  public record Pinged(SecioSession session, Duration roundTrip) {}

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: DialLibp2pNode HOST PORT NODE_PEER_ID");
      System.exit(2);
    }
    Transports transport = Transports.best();
    EventLoopGroup group = transport.newEventLoopGroup(1);
    try {
      Pinged pinged = ping(group, transport, args[0], Integer.parseInt(args[1]), PeerId.parse(args[2]));
      System.out.println("secured: " + pinged.session());
      System.out.printf("ping:    %.3f ms round trip%n", pinged.roundTrip().toNanos() / 1e6);
    } finally {
      group.shutdownGracefully();
    }
  }

  /** Connects, upgrades the connection as libp2p does, pings once and closes (at most 30 s). */
  public static Pinged ping(EventLoopGroup group, Transports transport, String host, int port, PeerId node)
      throws Exception {
    SecioConfig config = SecioConfig.builder(IdentityKeyPair.generate(KeyType.ED25519, new SecureRandom())).build();
    // identify(), if a caller asks for it, gives up after 20 s: within the 30 s this dial allows.
    Libp2pConfig libp2p = Libp2pConfig.builder().muxers(Muxer.MPLEX, Muxer.YAMUX)
        .identifyTimeout(Duration.ofSeconds(20)).build();
    Channel ch = new Bootstrap()
        .group(group)
        .channel(transport.channelClass())
        .handler(Libp2p.client(config, libp2p, node))
        .connect(host, port).sync().channel();
    try {
      Libp2pSession session = Libp2p.awaitSession(ch); // throws the upgrade's Libp2pException
      Duration roundTrip = session.ping().get(30, TimeUnit.SECONDS);
      return new Pinged(session.secioSession().orElseThrow(), roundTrip);
    } finally {
      ch.close().sync();
    }
  }
}
