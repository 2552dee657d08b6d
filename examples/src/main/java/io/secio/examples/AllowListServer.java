package io.secio.examples;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.secio.Dialect;
import io.secio.PeerId;
import io.secio.PeerVerifier;
import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.netty.Secio;
import io.secio.netty.SecioHandshakeCompletionEvent;
import io.secio.netty.Transports;
import io.secio.protocol.SecioException;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;

/**
 * An echo server that serves only the peers on its allow-list. The list is a {@link PeerVerifier} in
 * the config; the handshake asks it as soon as the client's Propose arrives, before the server spends
 * a signature or an ECDH on the client, and a peer not on it fails with {@code PEER_REFUSED}.
 *
 * <pre>
 * java -cp examples/target/secio.jar io.secio.examples.AllowListServer
 * </pre>
 *
 * <p>Runs the server and two clients in this process: one on the list, which gets its echo, and one
 * not on it, which the server turns away. Each connection's outcome is printed by one handler: the
 * completion event for a success, {@code exceptionCaught} for any failure.
 */
public final class AllowListServer {
  private AllowListServer() {}

  public static void main(String[] args) throws Exception {
    SecureRandom random = new SecureRandom();
    IdentityKeyPair serverKey = IdentityKeyPair.generate(KeyType.ED25519, random);
    SecioConfig friend = SecioConfig.builder(IdentityKeyPair.generate(KeyType.ED25519, random)).build();
    SecioConfig stranger = SecioConfig.builder(IdentityKeyPair.generate(KeyType.ED25519, random)).build();
    Transports transport = Transports.best();
    EventLoopGroup group = transport.newEventLoopGroup(2);
    try {
      Channel server = start(group, transport, serverKey, 0, List.of(friend.localPeerId()), System.out::println);
      int port = ((InetSocketAddress) server.localAddress()).getPort();
      PeerId serverId = Dialect.LIBP2P.peerId(serverKey.publicKey());
      System.out.println("serving " + friend.localPeerId() + " only, as " + serverId);
      EchoClient.Echoed echoed = EchoClient.echo(group, transport, friend, "127.0.0.1", port, serverId, "hi");
      System.out.println("friend got its echo: " + echoed.reply());
      try {
        EchoClient.echo(group, transport, stranger, "127.0.0.1", port, serverId, "hi");
      } catch (SecioException e) {
        System.out.println("stranger turned away: " + e.getMessage());
      }
      server.close().sync();
    } finally {
      group.shutdownGracefully();
    }
  }

  /**
   * Binds an echo server (port 0: any free port) that accepts only {@code allowed}; {@code log} hears
   * one line per connection: {@code served PEERID}, or {@code failed ADDRESS: REASON} (a peer not on
   * the list: {@code PEER_REFUSED}).
   */
  public static Channel start(EventLoopGroup group, Transports transport, IdentityKeyPair identity, int port,
      Collection<PeerId> allowed, Consumer<String> log) throws InterruptedException {
    SecioConfig config = SecioConfig.builder(identity)
        .peerVerifier(PeerVerifier.allowList(allowed))
        .build();
    return new ServerBootstrap()
        .group(group)
        .channel(transport.serverChannelClass())
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(Secio.server(config), new Outcome(log), new EchoServer.Echo());
          }
        })
        .bind(port)
        .sync()
        .channel();
  }

  /** Reports each connection's outcome once, from one place for success and one for failure. */
  private static final class Outcome extends ChannelInboundHandlerAdapter {
    private final Consumer<String> log;

    Outcome(Consumer<String> log) {
      this.log = log;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof SecioHandshakeCompletionEvent && ((SecioHandshakeCompletionEvent) evt).isSuccess()) {
        log.accept("served " + ((SecioHandshakeCompletionEvent) evt).session().remotePeerId());
      }
      ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      // Every failure arrives here: a refused or failed handshake and a bad frame later alike.
      String reason = cause instanceof SecioException
          ? ((SecioException) cause).reason().toString()
          : cause.toString();
      log.accept("failed " + ctx.channel().remoteAddress() + ": " + reason);
      ctx.close();
    }
  }
}
