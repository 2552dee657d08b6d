package io.secio.examples;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.netty.Secio;
import io.secio.netty.Transports;
import io.secio.protocol.SecioException;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;

/**
 * A secio echo server: whatever a client sends comes back to it over the secure channel.
 *
 * <pre>
 * java -cp examples/target/secio.jar io.secio.examples.EchoServer 4001 [KEY_FILE]
 * </pre>
 *
 * <p>It prints its peer id, which {@link EchoClient} needs to know whom it is talking to. The default
 * config is bridge mode, so v0.1 (libp2p) and v0.2 clients are both served on the one port.
 */
public final class EchoServer {
  private EchoServer() {}

  public static void main(String[] args) throws InterruptedException, IOException, SecioException {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 4001;
    // A key file (as `secio keygen` writes it) keeps the peer id across restarts; without one, a new
    // secp256k1 key, the one type every dialect carries.
    IdentityKeyPair identity = args.length > 1
        ? IdentityKeyPair.read(Path.of(args[1]))
        : IdentityKeyPair.generate(KeyType.SECP256K1, new SecureRandom());
    // Every kind of dialer on the one port: libp2p v0.1 and v0.2 and, with a secp256k1 key, tentacle.
    SecioConfig config = SecioConfig.builder(identity).anyDialect().build();
    // The first handshake's cost (class loading, the crypto self-tests) paid now, at start-up, not
    // inside the first client's handshake timeout.
    Secio.warmUp(config);
    Transports transport = Transports.best();
    EventLoopGroup group = transport.newEventLoopGroup(0);
    try {
      Channel server = start(group, transport, config, port);
      System.out.println("echo server on " + server.localAddress() + ", peer id " + config.localPeerId());
      server.closeFuture().sync();
    } finally {
      group.shutdownGracefully();
    }
  }

  /** Binds the server (port 0: any free port); every accepted connection is secured, then echoed. */
  public static Channel start(EventLoopGroup group, Transports transport, SecioConfig config, int port)
      throws InterruptedException {
    return new ServerBootstrap()
        .group(group)
        .channel(transport.serverChannelClass())
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            // Secio first, then the application, which reads and writes plaintext.
            ch.pipeline().addLast(Secio.server(config), new Echo());
          }
        })
        .bind(port)
        .sync()
        .channel();
  }

  /** Echoes plaintext; the secio handlers before it encrypt and decrypt. */
  static final class Echo extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ctx.write(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      ctx.flush();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      // Includes a frame that failed authentication: secio has already stopped reading; just close.
      ctx.close();
    }
  }
}
