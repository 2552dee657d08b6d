package io.secio.examples;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.LineBasedFrameDecoder;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.string.StringDecoder;
import io.netty.handler.codec.string.StringEncoder;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.netty.Secio;
import io.secio.netty.SecioHandshakeCompletionEvent;
import io.secio.netty.Transports;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Secio added to a live connection after the two sides agreed, in plaintext, to speak it: the shape of
 * libp2p's multistream-select, cut down to one line each way (for the real protocol, see {@link
 * DialLibp2pNode}). The dialler names a protocol; the listener answers with the same line if it
 * speaks it, or {@code na} and hangs up. Each side then adds secio right after its negotiator and
 * removes the negotiator, within the read that finished the negotiation, so bytes the peer sent right
 * behind the agreement (its Propose) reach secio. The application's handlers behind see neither the
 * negotiation nor ciphertext.
 *
 * <pre>
 * java -cp examples/target/secio.jar io.secio.examples.SecioAfterNegotiation "hello, upgrade"
 * </pre>
 */
public final class SecioAfterNegotiation {
  /** The protocol the listener speaks. */
  public static final String PROTOCOL = "/secio/1.0.0";

  private SecioAfterNegotiation() {}

  /** The listener's answer and the session it came over. */
  public record Outcome(String answer, SecioSession session) {}

  public static void main(String[] args) throws Exception {
    String line = args.length > 0 ? args[0] : "hello, upgrade";
    Transports transport = Transports.best();
    EventLoopGroup group = transport.newEventLoopGroup(2);
    try {
      Outcome outcome = run(group, transport, PROTOCOL, line);
      System.out.println("agreed on " + PROTOCOL + ", then secured: " + outcome.session());
      System.out.println("answer: " + outcome.answer());
    } finally {
      group.shutdownGracefully();
    }
  }

  /** The application's own handlers, the same whether or not secio sits in front of them. */
  static void application(ChannelPipeline pipeline, ChannelHandler handler) {
    pipeline.addLast(new LineBasedFrameDecoder(1024));
    pipeline.addLast(new StringDecoder(StandardCharsets.UTF_8));
    pipeline.addLast(new StringEncoder(StandardCharsets.UTF_8));
    pipeline.addLast(handler);
  }

  /**
   * Starts a listener, dials it proposing {@code protocol}, sends {@code line} once secured and returns
   * the answer; fails if the listener does not speak {@code protocol} or the handshake fails.
   */
  public static Outcome run(EventLoopGroup group, Transports transport, String protocol, String line)
      throws Exception {
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
            ch.pipeline().addLast(new Negotiator(null, Secio.server(serverConfig)));
            application(ch.pipeline(), new UpperCase());
          }
        })
        .bind(0)
        .sync()
        .channel();
    try {
      CompletableFuture<Outcome> outcome = new CompletableFuture<>();
      Channel client = new Bootstrap()
          .group(group)
          .channel(transport.channelClass())
          .handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              ch.pipeline().addLast(new Negotiator(protocol, Secio.client(clientConfig, serverId)));
              application(ch.pipeline(), new Ask(line, outcome));
            }
          })
          .connect(server.localAddress())
          .sync()
          .channel();
      try {
        return outcome.get(10, TimeUnit.SECONDS);
      } finally {
        client.close().sync();
      }
    } finally {
      server.close().sync();
    }
  }

  /**
   * The plaintext negotiation: a dialler ({@code proposed} not null) sends its line when connected and
   * waits for the echo; a listener answers {@link #PROTOCOL} or {@code na}. On agreement it puts
   * {@code secio} in its place, and the bytes it read past its line go on to secio.
   */
  static final class Negotiator extends ByteToMessageDecoder {
    private static final int MAX_LINE_IN_BYTES = 256;
    private final String proposed;
    private final ChannelHandler secio;

    Negotiator(String proposed, ChannelHandler secio) {
      this.proposed = proposed;
      this.secio = secio;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
      if (proposed != null) {
        ctx.writeAndFlush(line(proposed));
      }
      super.channelActive(ctx);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
      int end = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) '\n');
      if (end < 0) {
        if (in.readableBytes() > MAX_LINE_IN_BYTES) {
          throw new TooLongFrameException("negotiation line over " + MAX_LINE_IN_BYTES + " bytes");
        }
        return;
      }
      String heard = in.readCharSequence(end - in.readerIndex(), StandardCharsets.UTF_8).toString();
      in.skipBytes(1);
      if (proposed == null && !heard.equals(PROTOCOL)) {
        ctx.writeAndFlush(line("na")).addListener(ChannelFutureListener.CLOSE);
        return;
      }
      if (proposed != null && !heard.equals(proposed)) {
        throw new IOException("the listener does not speak " + proposed + ": it answered " + heard);
      }
      if (proposed == null) {
        ctx.writeAndFlush(line(PROTOCOL)); // goes out before secio, added next, sends its Propose
      }
      // Secio right behind this handler, then this one out: ByteToMessageDecoder passes what it holds
      // past the line (the peer's Propose, if it came in the same read) on to secio's frame decoder.
      ctx.pipeline().addAfter(ctx.name(), null, secio);
      ctx.pipeline().remove(this);
    }

    private static ByteBuf line(String text) {
      return Unpooled.copiedBuffer(text + "\n", StandardCharsets.UTF_8);
    }
  }

  /** The listener's application: answers each line in upper case. */
  private static final class UpperCase extends SimpleChannelInboundHandler<String> {
    @Override
    protected void channelRead0(ChannelHandlerContext ctx, String text) {
      ctx.writeAndFlush(text.toUpperCase(Locale.ROOT) + "\n");
    }
  }

  /** The dialler's application: asks once secured, and takes the first answer. */
  private static final class Ask extends SimpleChannelInboundHandler<String> {
    private final String question;
    private final CompletableFuture<Outcome> outcome;

    Ask(String question, CompletableFuture<Outcome> outcome) {
      this.question = question;
      this.outcome = outcome;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof SecioHandshakeCompletionEvent && ((SecioHandshakeCompletionEvent) evt).isSuccess()) {
        ctx.writeAndFlush(question + "\n");
      }
      ctx.fireUserEventTriggered(evt);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, String answer) {
      outcome.complete(new Outcome(answer, Secio.session(ctx.channel()).orElseThrow()));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      // The negotiation's failure and secio's (handshake or frame) all end here.
      outcome.completeExceptionally(cause);
      ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      outcome.completeExceptionally(new IOException("connection closed before an answer"));
    }
  }
}
