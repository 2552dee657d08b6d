package io.secio.examples;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.LineBasedFrameDecoder;
import io.netty.handler.codec.string.StringDecoder;
import io.netty.handler.codec.string.StringEncoder;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.netty.Secio;
import io.secio.netty.SecioHandshakeCompletionEvent;
import io.secio.netty.Transports;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A two-peer chat: each line typed on one side appears on the other.
 *
 * <pre>
 * java -cp examples/target/secio.jar io.secio.examples.Chat listen 4001
 * java -cp examples/target/secio.jar io.secio.examples.Chat dial 127.0.0.1 4001 LISTENER_PEER_ID
 * </pre>
 *
 * <p>The listener talks to the first peer that connects and turns later ones away. Lines are framed
 * by ordinary Netty codecs placed after secio, which hands them plaintext.
 */
public final class Chat {
  private static final int MAX_LINE_LENGTH = 4096;

  private Chat() {}

  public static void main(String[] args) throws Exception {
    boolean listen = args.length == 2 && args[0].equals("listen");
    if (!listen && !(args.length == 4 && args[0].equals("dial"))) {
      System.err.println("usage: Chat listen PORT | Chat dial HOST PORT PEER_ID");
      System.exit(2);
    }
    SecioConfig config = SecioConfig.builder(IdentityKeyPair.generate(KeyType.ED25519, new SecureRandom()))
        .build();
    Transports transport = Transports.best();
    EventLoopGroup group = transport.newEventLoopGroup(1);
    Consumer<String> show = line -> System.out.println("peer> " + line);
    try {
      Channel peer;
      if (listen) {
        CompletableFuture<Channel> first = new CompletableFuture<>();
        Channel server = listen(group, transport, config, Integer.parseInt(args[1]), show, first);
        System.out.println("waiting on " + server.localAddress() + ", peer id " + config.localPeerId());
        peer = first.get();
      } else {
        peer = dial(group, transport, config, args[1], Integer.parseInt(args[2]), PeerId.parse(args[3]), show);
      }
      System.out.println("chatting with " + Secio.handshakeFuture(peer).sync().getNow().remotePeerId());
      BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      String line;
      while ((line = stdin.readLine()) != null && peer.isActive()) {
        say(peer, line);
      }
      peer.close().sync();
    } finally {
      group.shutdownGracefully();
    }
  }

  /** Listens; {@code first} completes with the first peer whose handshake succeeds. */
  public static Channel listen(EventLoopGroup group, Transports transport, SecioConfig config, int port,
      Consumer<String> show, CompletableFuture<Channel> first) throws InterruptedException {
    return new ServerBootstrap()
        .group(group)
        .channel(transport.serverChannelClass())
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            chatPipeline(ch.pipeline().addLast(Secio.server(config)), show, first);
          }
        })
        .bind(port)
        .sync()
        .channel();
  }

  /** Dials a listener that must hold {@code peer}'s key; returns once connected. */
  public static Channel dial(EventLoopGroup group, Transports transport, SecioConfig config, String host, int port,
      PeerId peer, Consumer<String> show) throws InterruptedException {
    return new Bootstrap()
        .group(group)
        .channel(transport.channelClass())
        .handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            chatPipeline(ch.pipeline().addLast(Secio.client(config, peer)), show, new CompletableFuture<>());
          }
        })
        .connect(host, port)
        .sync()
        .channel();
  }

  /** Sends one line. */
  public static void say(Channel peer, String line) {
    peer.writeAndFlush(line + "\n");
  }

  /** After secio: lines in, strings out, and the chat itself. */
  private static void chatPipeline(ChannelPipeline pipeline, Consumer<String> show,
      CompletableFuture<Channel> secured) {
    pipeline.addLast(new LineBasedFrameDecoder(MAX_LINE_LENGTH),
        new StringDecoder(StandardCharsets.UTF_8),
        new StringEncoder(StandardCharsets.UTF_8),
        new SimpleChannelInboundHandler<String>() {
          @Override
          public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof SecioHandshakeCompletionEvent && ((SecioHandshakeCompletionEvent) evt).isSuccess()
                && !secured.complete(ctx.channel())) {
              ctx.close(); // a chat has two peers: this one came second
            }
          }

          @Override
          protected void channelRead0(ChannelHandlerContext ctx, String line) {
            show.accept(line);
          }

          @Override
          public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
          }
        });
  }
}
