package io.secio.examples;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.secio.Backend;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.netty.Secio;
import io.secio.netty.Transports;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Sends one message to an {@link EchoServer} and prints what comes back.
 *
 * <pre>
 * java -cp examples/target/secio.jar io.secio.examples.EchoClient 127.0.0.1 4001 SERVER_PEER_ID "hello"
 * </pre>
 *
 * <p>The server's peer id makes the handshake fail unless the server holds that key: without it, a
 * man in the middle could answer.
 */
public final class EchoClient {
  private EchoClient() {}

  /** What was negotiated and what came back. */
  public record Echoed(SecioSession session, String reply) {}

  public static void main(String[] args) throws Exception {
    if (args.length < 3) {
      System.err.println("usage: EchoClient HOST PORT SERVER_PEER_ID [MESSAGE [auto|conscrypt|jdk|bouncycastle]]");
      System.exit(2);
    }
    String message = args.length > 3 ? args[3] : "hello, secio";
    // The crypto backend of every primitive, signatures included; AUTO picks per primitive.
    Backend backend = args.length > 4
        ? Backend.fromId(args[4]).orElseThrow(() -> new IllegalArgumentException("no backend " + args[4]))
        : Backend.AUTO;
    SecioConfig config = SecioConfig.builder(IdentityKeyPair.generate(KeyType.ED25519, new SecureRandom()))
        .backend(backend)
        .build();
    Transports transport = Transports.best();
    EventLoopGroup group = transport.newEventLoopGroup(1);
    try {
      Echoed echoed = echo(group, transport, config, args[0], Integer.parseInt(args[1]), PeerId.parse(args[2]),
          message);
      System.out.println("secured: " + echoed.session() + ", ciphers by " + echoed.session().cipherBackend());
      System.out.println("echoed:  " + echoed.reply());
    } finally {
      group.shutdownGracefully();
    }
  }

  /** As {@link #echo(EventLoopGroup, Transports, SecioConfig, String, int, PeerId, String)}, as a new peer. */
  public static Echoed echo(EventLoopGroup group, Transports transport, String host, int port, PeerId server,
      String message) throws Exception {
    SecioConfig config = SecioConfig.builder(IdentityKeyPair.generate(KeyType.ED25519, new SecureRandom()))
        .build();
    return echo(group, transport, config, host, port, server, message);
  }

  /**
   * Connects as the peer of {@code config}, secures the connection with the peer {@code server} (and
   * no other), sends {@code message} and waits (at most 10 s) for its echo.
   *
   * @throws io.secio.protocol.SecioException if the handshake fails: {@code PEER_ID_MISMATCH} when another
   *     key answers, {@code CLOSED} when the server hangs up (as one that does not accept us does)
   */
  public static Echoed echo(EventLoopGroup group, Transports transport, SecioConfig config, String host,
      int port, PeerId server, String message) throws Exception {
    byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
    CompletableFuture<String> reply = new CompletableFuture<>();
    Channel channel = new Bootstrap()
        .group(group)
        .channel(transport.channelClass())
        .handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(Secio.client(config, server), new Collect(bytes.length, reply));
          }
        })
        .connect(host, port)
        .sync()
        .channel();
    try {
      // Writing right away would be fine too: secio queues writes until the handshake completes.
      SecioSession session = Secio.awaitHandshake(channel); // throws the handshake's SecioException
      channel.writeAndFlush(Unpooled.wrappedBuffer(bytes));
      return new Echoed(session, reply.get(10, TimeUnit.SECONDS));
    } finally {
      channel.close();
    }
  }

  /** Gathers the echo, which may arrive in several reads, until it is as long as the message. */
  private static final class Collect extends SimpleChannelInboundHandler<ByteBuf> {
    private final ByteArrayOutputStream received = new ByteArrayOutputStream();
    private final int expected;
    private final CompletableFuture<String> reply;

    Collect(int expected, CompletableFuture<String> reply) {
      this.expected = expected;
      this.reply = reply;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf msg) {
      byte[] chunk = new byte[msg.readableBytes()];
      msg.readBytes(chunk);
      received.writeBytes(chunk);
      if (received.size() >= expected) {
        reply.complete(received.toString(StandardCharsets.UTF_8));
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      // Every secio failure arrives here as a SecioException, a failed handshake as well as a bad frame.
      reply.completeExceptionally(cause);
      ctx.close();
    }
  }
}
