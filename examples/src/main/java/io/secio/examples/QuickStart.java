package io.secio.examples;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.netty.Secio;
import io.secio.netty.Transports;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A secio server and a client in one process: the client sends "hello" and prints the echo. */
public final class QuickStart {
  public static void main(String[] args) throws Exception {
    SecureRandom random = new SecureRandom();
    SecioConfig server = SecioConfig.builder(IdentityKeyPair.generate(KeyType.ED25519, random)).build();
    SecioConfig client = SecioConfig.builder(IdentityKeyPair.generate(KeyType.ED25519, random)).build();
    Transports transport = Transports.best();
    EventLoopGroup group = transport.newEventLoopGroup(0);
    try {
      Channel listener = new ServerBootstrap().group(group).channel(transport.serverChannelClass())
          .childHandler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              ch.pipeline().addLast(Secio.server(server), new ChannelInboundHandlerAdapter() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object plaintext) {
                  ctx.writeAndFlush(plaintext); // echo
                }
              });
            }
          })
          .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
      CompletableFuture<String> echo = new CompletableFuture<>();
      Channel channel = new Bootstrap().group(group).channel(transport.channelClass())
          .handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              // The client accepts only the peer it means to dial: the server's peer id.
              ch.pipeline().addLast(Secio.client(client, server.localPeerId()),
                  new SimpleChannelInboundHandler<ByteBuf>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf plaintext) {
                      echo.complete(plaintext.toString(StandardCharsets.UTF_8));
                    }
                  });
            }
          })
          .connect(listener.localAddress()).sync().channel();
      channel.writeAndFlush(Unpooled.copiedBuffer("hello", StandardCharsets.UTF_8));
      System.out.println(echo.get(30, TimeUnit.SECONDS) + " over "
          + Secio.session(channel).orElseThrow().cipher().wireName() + " on " + transport);
      channel.close().sync();
      listener.close().sync();
    } finally {
      group.shutdownGracefully().sync();
    }
  }
}
