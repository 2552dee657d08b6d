package io.secio.consumercheck;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.netty.Secio;
import io.secio.netty.Transports;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The half-close echo of issue 21 as a module-path user runs it, on epoll: a client sends 9,000,000
 * bytes in 1 MiB writes and half-closes after the last; the echo server pauses reading whenever its
 * echo backs up; the client reads nothing until the server has paused once. Every byte must come back
 * before the server's FIN. Netty 4.2's epoll lost that tail unless secio's guard was in place
 * (EpollInterestGuardTest in secio-netty reproduces it every time).
 *
 * <p>{@code java -p ... -m io.secio.consumercheck/io.secio.consumercheck.HalfCloseEcho ROUNDS GROUP},
 * GROUP {@code transports} (groups from {@link Transports#EPOLL}) or {@code netty} (a group made with
 * Netty's own constructor, reached through public reflection since this module does not read the
 * epoll module at compile time). Prints a line per failed round, then {@code lost F of ROUNDS rounds}.
 * secio-netty's own HalfCloseEchoTest runs the same exchange on the class path; the two cannot share
 * code across the module boundary.
 */
public final class HalfCloseEcho {
  private static final int TOTAL_IN_BYTES = 9_000_000;
  private static final int WRITE_IN_BYTES = 1024 * 1024;
  private static final long HANG_GUARD_SECONDS = 120;

  private HalfCloseEcho() {}

  public static void main(String[] args) throws Exception {
    int rounds = Integer.parseInt(args[0]);
    EventLoopGroup group = args[1].equals("netty") ? nettyEpollGroup() : Transports.EPOLL.newEventLoopGroup(2);
    SecureRandom random = new SecureRandom();
    SecioConfig server = config(random);
    SecioConfig client = config(random);
    byte[] sent = new byte[TOTAL_IN_BYTES];
    new Random(21).nextBytes(sent);
    LinkedBlockingQueue<PausingEcho> echoes = new LinkedBlockingQueue<>();
    int lost = 0;
    try {
      Channel listener = new ServerBootstrap().group(group)
          .channel(Transports.EPOLL.serverChannelClass())
          .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
          .childHandler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              PausingEcho echo = new PausingEcho();
              echoes.add(echo);
              ch.pipeline().addLast(Secio.server(server), echo);
            }
          })
          .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
      for (int round = 0; round < rounds; round++) {
        String failure = round(group, client, listener, sent, echoes);
        if (failure != null) {
          lost++;
          System.out.println("round " + round + ": " + failure);
        }
      }
      listener.close().sync();
    } finally {
      group.shutdownGracefully(0, HANG_GUARD_SECONDS, TimeUnit.SECONDS).sync();
    }
    System.out.println("lost " + lost + " of " + rounds + " rounds on " + group.getClass().getSimpleName());
  }

  private static SecioConfig config(SecureRandom random) {
    return SecioConfig.builder(IdentityKeyPair.generate(KeyType.ED25519, random))
        .handshakeTimeout(LoopbackEcho.HANDSHAKE_GUARD)
        .build();
  }

  private static EventLoopGroup nettyEpollGroup() throws ReflectiveOperationException {
    IoHandlerFactory epoll = (IoHandlerFactory) Class.forName("io.netty.channel.epoll.EpollIoHandler")
        .getMethod("newFactory").invoke(null);
    return new MultiThreadIoEventLoopGroup(2, epoll);
  }

  /** One connection; null if every byte came back, else what went wrong. */
  private static String round(EventLoopGroup group, SecioConfig client, Channel listener, byte[] sent,
      LinkedBlockingQueue<PausingEcho> echoes) throws Exception {
    Received received = new Received(sent);
    Channel ch = new Bootstrap().group(group).channel(Transports.EPOLL.channelClass())
        .option(ChannelOption.ALLOW_HALF_CLOSURE, true)
        .option(ChannelOption.AUTO_READ, false)
        .option(ChannelOption.SO_RCVBUF, 32 * 1024)
        .handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel c) {
            c.pipeline().addLast(Secio.client(client), received);
          }
        })
        .connect(listener.localAddress()).sync().channel();
    Secio.handshakeFuture(ch).get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
    CompletableFuture<Void> written = new CompletableFuture<>();
    for (int offset = 0; offset < sent.length; offset += WRITE_IN_BYTES) {
      int length = Math.min(WRITE_IN_BYTES, sent.length - offset);
      boolean last = offset + length == sent.length;
      ch.writeAndFlush(Unpooled.wrappedBuffer(sent, offset, length)).addListener(f -> {
        if (!f.isSuccess()) {
          written.completeExceptionally(f.cause());
        } else if (last) {
          ((DuplexChannel) ch).shutdownOutput();
          written.complete(null);
        }
      });
    }
    PausingEcho echo = echoes.poll(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
    CompletableFuture.anyOf(echo.paused, written).get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
    ch.eventLoop().execute(() -> ch.config().setAutoRead(true)); // the late reader
    String outcome = received.outcome.get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
    ch.close().sync();
    return outcome;
  }

  /** Echoes; stops reading while the echo backs up; ends its output after the client's FIN. */
  private static final class PausingEcho extends ChannelInboundHandlerAdapter {
    final CompletableFuture<Void> paused = new CompletableFuture<>();

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ctx.write(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      ctx.flush();
      if (!ctx.channel().isWritable()) {
        ctx.channel().config().setAutoRead(false);
        paused.complete(null);
      }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
      if (ctx.channel().isWritable()) {
        ctx.channel().config().setAutoRead(true);
      }
      ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof ChannelInputShutdownEvent) {
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(f -> ctx.close());
      }
      ctx.fireUserEventTriggered(evt);
    }
  }

  /** Compares the echo with what was sent; completes at the end of the stream. */
  private static final class Received extends ChannelInboundHandlerAdapter {
    final CompletableFuture<String> outcome = new CompletableFuture<>();
    private final byte[] sent;
    private int count;
    private boolean differs;

    Received(byte[] sent) {
      this.sent = sent;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf buf = (ByteBuf) msg;
      try {
        byte[] chunk = new byte[buf.readableBytes()];
        buf.readBytes(chunk);
        int end = count + chunk.length;
        differs |= end > sent.length || !Arrays.equals(chunk, 0, chunk.length, sent, count, end);
        count = end;
      } finally {
        buf.release();
      }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof ChannelInputShutdownEvent) {
        end();
      }
      ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      end();
      ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      outcome.complete("failed after " + count + " bytes: " + cause);
      ctx.close();
    }

    private void end() {
      outcome.complete(differs ? "the echo differs from what was sent"
          : count == sent.length ? null : "received " + count + " of " + sent.length + " bytes");
    }
  }
}
