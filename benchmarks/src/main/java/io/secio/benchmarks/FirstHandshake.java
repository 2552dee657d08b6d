package io.secio.benchmarks;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.handshake.WarmUp;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.netty.Secio;
import io.secio.netty.Transports;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * What a JVM's first secio handshake costs: class loading, the crypto providers (Conscrypt's natives)
 * and the backends' known-answer self-tests, all paid inside the first handshake's timeout unless
 * a warm-up paid them first. In this JVM, which must be a fresh one: a server and a client with
 * Ed25519 identities on loopback ({@code Transports.best()}); the first handshake, from the connect to
 * the client's session, and a second one for comparison. Before the first, the warm-up the argument
 * names runs on the server's config: {@code none}, {@code engine} ({@link WarmUp#run}: primitives and
 * an engine handshake in memory) or {@code secio} ({@link Secio#warmUp}: that, and a handshake
 * through the Netty handlers in memory). Prints one JSON object, times in milliseconds: the JVM's
 * start to {@code main}, the setup (keys, configs, event loops, bind), the warm-up, the two
 * handshakes.
 *
 * <pre>java -cp benchmarks.jar io.secio.benchmarks.FirstHandshake none|engine|secio</pre>
 */
public final class FirstHandshake {
  private FirstHandshake() {}

  public static void main(String[] args) throws Exception {
    long jvmToMain = ManagementFactory.getRuntimeMXBean().getUptime();
    String warmUp = args.length > 0 ? args[0] : "none";
    if (!warmUp.equals("none") && !warmUp.equals("engine") && !warmUp.equals("secio")) {
      throw new IllegalArgumentException("the warm-up is none, engine or secio, not " + warmUp);
    }
    long start = System.nanoTime();
    SecureRandom random = new SecureRandom();
    // A generous timeout: this measures the first handshake, it must not fail it on a busy machine.
    SecioConfig server = SecioConfig.builder(IdentityKeyPair.generate(KeyType.ED25519, random))
        .handshakeTimeout(Duration.ofMinutes(5)).build();
    SecioConfig client = SecioConfig.builder(IdentityKeyPair.generate(KeyType.ED25519, random))
        .handshakeTimeout(Duration.ofMinutes(5)).build();
    Transports transport = Transports.best();
    EventLoopGroup group = transport.newEventLoopGroup(2);
    try {
      Channel listener = new ServerBootstrap().group(group).channel(transport.serverChannelClass())
          .childHandler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              ch.pipeline().addLast(Secio.server(server), new ChannelInboundHandlerAdapter());
            }
          })
          .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
      long setUp = System.nanoTime();
      if (warmUp.equals("engine")) {
        WarmUp.run(server);
      } else if (warmUp.equals("secio")) {
        Secio.warmUp(server);
      }
      long warmedUp = System.nanoTime();
      SecioSession first = handshake(group, transport, client, server, listener);
      long firstDone = System.nanoTime();
      handshake(group, transport, client, server, listener);
      long secondDone = System.nanoTime();
      System.out.printf(Locale.ROOT,
          "{\"warmUp\":\"%s\",\"transport\":\"%s\",\"backend\":\"%s\",\"jvmToMainMs\":%d,\"setupMs\":%.1f,"
              + "\"warmUpMs\":%.1f,\"firstHandshakeMs\":%.1f,\"secondHandshakeMs\":%.1f}%n",
          warmUp, transport, first.cipherBackend(), jvmToMain, millis(start, setUp),
          millis(setUp, warmedUp), millis(warmedUp, firstDone), millis(firstDone, secondDone));
      listener.close().sync();
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }
  }

  /** Connects a client to {@code listener} and waits for its session; closes the connection. */
  private static SecioSession handshake(EventLoopGroup group, Transports transport, SecioConfig client,
      SecioConfig server, Channel listener) throws Exception {
    Channel channel = new Bootstrap().group(group).channel(transport.channelClass())
        .handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(Secio.client(client, server.localPeerId()), new ChannelInboundHandlerAdapter());
          }
        })
        .connect(listener.localAddress()).sync().channel();
    try {
      return Secio.awaitHandshake(channel);
    } finally {
      channel.close().sync();
    }
  }

  private static double millis(long from, long to) {
    return (to - from) / 1e6;
  }
}
