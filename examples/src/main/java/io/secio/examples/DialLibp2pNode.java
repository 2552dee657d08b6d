package io.secio.examples;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.netty.Secio;
import io.secio.netty.Transports;
import io.secio.netty.multistream.Multistream;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Dials a libp2p node the way libp2p does and pings it: multistream-select picks {@code /secio/1.0.0},
 * secio secures the connection, a second multistream-select inside it picks {@code /mplex/6.7.0}, and
 * a minimal mplex ({@link MplexPing}, not part of the library) opens a stream for {@code
 * /ipfs/ping/1.0.0} and sends 32 random bytes that the node echoes.
 *
 * <pre>
 * java -cp examples/target/secio.jar io.secio.examples.DialLibp2pNode 127.0.0.1 4001 QmNodePeerId...
 * </pre>
 *
 * <p>The pipeline, set up before the connection exists (each stage waits for the one before it):
 *
 * <pre>{@code
 * ch.pipeline().addLast(
 *     Multistream.secioInitiator(config, nodePeerId),   // multistream -> /secio/1.0.0 -> secio
 *     Multistream.initiator("/mplex/6.7.0", null),      // multistream inside the secure channel
 *     new MplexPing());                                 // the muxer (here: one ping stream)
 * }</pre>
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
      System.out.printf("ping:    %d bytes echoed in %.3f ms%n", MplexPing.PING_SIZE_IN_BYTES,
          pinged.roundTrip().toNanos() / 1e6);
    } finally {
      group.shutdownGracefully();
    }
  }

  /** Connects, upgrades the connection as libp2p does, pings once and closes (at most 30 s). */
  public static Pinged ping(EventLoopGroup group, Transports transport, String host, int port, PeerId node)
      throws Exception {
    SecioConfig config = SecioConfig.builder(IdentityKeyPair.generate(KeyType.ED25519, new SecureRandom())).build();
    MplexPing mplex = new MplexPing();
    Channel ch = new Bootstrap()
        .group(group)
        .channel(transport.channelClass())
        .handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(
                Multistream.secioInitiator(config, node),
                Multistream.initiator(MplexPing.MPLEX, null),
                mplex);
          }
        })
        .connect(host, port).sync().channel();
    try {
      long nanos = mplex.roundTripNanos().get(30, TimeUnit.SECONDS);
      return new Pinged(Secio.session(ch).orElseThrow(), Duration.ofNanos(nanos));
    } finally {
      ch.close().sync();
    }
  }
}
