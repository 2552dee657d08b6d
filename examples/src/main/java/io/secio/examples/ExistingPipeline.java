package io.secio.examples;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.LineBasedFrameDecoder;
import io.netty.handler.codec.string.StringDecoder;
import io.netty.handler.codec.string.StringEncoder;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.netty.Secio;
import io.secio.netty.Transports;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Adding secio to a Netty application that already has its pipeline: a line protocol (read timeout,
 * line decoder, string codecs, a handler that answers in upper case) with a byte counter at the
 * socket. One line per side secures it: {@code pipeline.addAfter("wire", "secio", Secio.server(..))}.
 * Handlers before secio see ciphertext, handlers after it plaintext; none of them changes.
 *
 * <pre>
 * java -cp examples/target/secio.jar io.secio.examples.ExistingPipeline "hello, pipeline"
 * </pre>
 *
 * <p>Runs a server and a client in this process and prints the answer and the bytes each side's
 * counter saw on the wire: the handshake and the frame overhead are the difference.
 */
public final class ExistingPipeline {
  private ExistingPipeline() {}

  /** The answer and the bytes the client's wire counter saw, each way. */
  public record Outcome(String answer, long wireBytesSent, long wireBytesReceived) {}

  public static void main(String[] args) throws Exception {
    String line = args.length > 0 ? args[0] : "hello, pipeline";
    Transports transport = Transports.best();
    EventLoopGroup group = transport.newEventLoopGroup(2);
    try {
      Outcome outcome = run(group, transport, line);
      System.out.println("answer: " + outcome.answer());
      System.out.printf("plaintext %d bytes each way; on the wire %d bytes sent, %d received%n",
          line.length() + 1, outcome.wireBytesSent(), outcome.wireBytesReceived());
    } finally {
      group.shutdownGracefully();
    }
  }

  /** The pipeline the application had before secio; {@code wire} counts raw bytes. */
  static void existingPipeline(ChannelPipeline pipeline, WireCounter wire, ChannelHandler application) {
    pipeline.addLast("wire", wire);
    pipeline.addLast("timeout", new ReadTimeoutHandler(30));
    pipeline.addLast("lines", new LineBasedFrameDecoder(1024));
    pipeline.addLast("decoder", new StringDecoder(StandardCharsets.UTF_8));
    pipeline.addLast("encoder", new StringEncoder(StandardCharsets.UTF_8));
    pipeline.addLast("app", application);
  }

  /** Starts a server, sends {@code line} from a client, returns the server's answer. */
  public static Outcome run(EventLoopGroup group, Transports transport, String line) throws Exception {
    SecureRandom random = new SecureRandom();
    SecioConfig serverConfig = SecioConfig.builder(IdentityKeyPair.generate(KeyType.ED25519, random)).build();
    SecioConfig clientConfig = SecioConfig.builder(IdentityKeyPair.generate(KeyType.ED25519, random)).build();
    PeerId serverId = serverConfig.localPeerId();

    Channel server = new ServerBootstrap()
        .group(group)
        .channel(transport.serverChannelClass())
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            existingPipeline(ch.pipeline(), new WireCounter(), new UpperCase());
            // The one new line: it puts handlers named "secio-decoder" and "secio" in its place.
            ch.pipeline().addAfter("wire", "secio", Secio.server(serverConfig));
          }
        })
        .bind(0)
        .sync()
        .channel();
    CompletableFuture<String> answer = new CompletableFuture<>();
    WireCounter clientWire = new WireCounter();
    try {
      Channel client = new Bootstrap()
          .group(group)
          .channel(transport.channelClass())
          .handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              existingPipeline(ch.pipeline(), clientWire, new Answer(answer));
              ch.pipeline().addAfter("wire", "secio", Secio.client(clientConfig, serverId)); // and here
            }
          })
          .connect(server.localAddress())
          .sync()
          .channel();
      // The application writes as it always did; secio holds the line until the handshake is done.
      client.writeAndFlush(line + "\n");
      String reply = answer.get(10, TimeUnit.SECONDS);
      client.close().sync();
      return new Outcome(reply, clientWire.written.get(), clientWire.read.get());
    } finally {
      server.close().sync();
    }
  }

  /** Counts the bytes that pass it; where it sits decides whether it counts ciphertext. */
  static final class WireCounter extends ChannelDuplexHandler {
    final AtomicLong read = new AtomicLong();
    final AtomicLong written = new AtomicLong();

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      read.addAndGet(((ByteBuf) msg).readableBytes());
      ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
      written.addAndGet(((ByteBuf) msg).readableBytes());
      ctx.write(msg, promise);
    }
  }

  /** The server's application: answers each line in upper case. */
  private static final class UpperCase extends SimpleChannelInboundHandler<String> {
    @Override
    protected void channelRead0(ChannelHandlerContext ctx, String line) {
      ctx.writeAndFlush(line.toUpperCase(Locale.ROOT) + "\n");
    }
  }

  /** The client's application: takes the first answer. */
  private static final class Answer extends SimpleChannelInboundHandler<String> {
    private final CompletableFuture<String> answer;

    Answer(CompletableFuture<String> answer) {
      this.answer = answer;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, String line) {
      answer.complete(line);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      answer.completeExceptionally(cause);
      ctx.close();
    }
  }
}
