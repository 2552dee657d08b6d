package io.secio.examples;

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
import io.netty.channel.SimpleChannelInboundHandler;
import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.netty.Transports;
import io.secio.streams.StreamChannel;
import io.secio.tentacle.Tentacle;
import io.secio.tentacle.TentacleConfig;
import io.secio.tentacle.TentacleProtocol;
import io.secio.tentacle.TentacleSession;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A tentacle (CKB) server and a client in one process: the client opens /test/echo and prints the echo. */
public final class TentacleQuickStart {
  /** Echoes every message of every stream it is added to. */
  @ChannelHandler.Sharable
  static final class Echo extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
      ctx.writeAndFlush(message);
    }
  }

  /** tentacle's secio: a secp256k1 identity and the tentacle dialect. */
  static SecioConfig secio(SecureRandom random) {
    return SecioConfig.builder(IdentityKeyPair.generate(KeyType.SECP256K1, random)).dialect(Dialect.TENTACLE).build();
  }

  /** Both sides speak /test/echo, versions 1 and 2 (ascending), and echo the peer's streams of it. */
  static TentacleConfig echoProtocol() {
    return TentacleConfig.builder()
        .protocol(TentacleProtocol.of("/test/echo", List.of("1", "2"), new Echo()))
        .build();
  }

  public static void main(String[] args) throws Exception {
    System.out.println(run());
  }

  /** Runs the server and the client; the echo, the protocol and the server's peer id. */
  static String run() throws Exception {
    SecureRandom random = new SecureRandom();
    SecioConfig server = secio(random);
    SecioConfig client = secio(random);
    Transports transport = Transports.best();
    EventLoopGroup group = transport.newEventLoopGroup(0);
    try {
      TentacleConfig serverProtocols = echoProtocol();
      Channel listener = new ServerBootstrap().group(group).channel(transport.serverChannelClass())
          .childHandler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              ch.pipeline().addLast(Tentacle.server(server, serverProtocols));
            }
          })
          .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
      // The client accepts only the node it means to dial: the server's tentacle peer id.
      Channel channel = new Bootstrap().group(group).channel(transport.channelClass())
          .handler(Tentacle.client(client, echoProtocol(), server.localPeerId()))
          .connect(listener.localAddress()).sync().channel();
      TentacleSession session = Tentacle.awaitSession(channel); // throws the TentacleException
      String line = echo(session) + " from " + session.remotePeer().orElseThrow();
      session.close().sync();
      listener.close().sync();
      return line;
    } finally {
      group.shutdownGracefully().sync();
    }
  }

  /** Opens /test/echo on {@code session}, sends "hello" and returns the echo and the protocol. */
  static String echo(TentacleSession session) throws Exception {
    CompletableFuture<String> echo = new CompletableFuture<>();
    StreamChannel stream = session.openStream("/test/echo", new SimpleChannelInboundHandler<ByteBuf>() {
      @Override
      protected void channelRead0(ChannelHandlerContext ctx, ByteBuf message) {
        echo.complete(message.toString(StandardCharsets.UTF_8));
      }
    }).get(30, TimeUnit.SECONDS);
    stream.writeAndFlush(Unpooled.copiedBuffer("hello", StandardCharsets.UTF_8)); // one message
    return echo.get(30, TimeUnit.SECONDS) + " over " + Tentacle.protocol(stream).orElseThrow();
  }
}
