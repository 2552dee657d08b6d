package com.example.echo;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.ReferenceCountUtil;
import io.secio.SecioConfig;
import io.secio.SecioMode;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.netty.Secio;
import io.secio.netty.Transports;
import io.secio.protocol.CipherAlgorithm;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A user's secio server on Netty's native epoll, as a named module, and a client that half-closes
 * (docs/PROTOCOL.md section 16). Two applications, each run for a number of rounds (connections):
 *
 * <ul>
 *   <li><b>echo</b>: the server echoes each read, flushes at read-complete, stops reading while its
 *       echo backs up, and ends its output after the client's. The client sends 9,000,000 bytes in
 *       64 KiB writes and half-closes; it reads nothing until the server has stopped reading once
 *       (or every write is done), then reads to the end.
 *   <li><b>reply</b>: the client sends a short request and half-closes; the server answers the end
 *       of the request with 9,000,000 bytes and closes. The client reads nothing until the answer
 *       has been written, then reads to the end.
 * </ul>
 *
 * <p>{@code java -p ... -m com.example.echo/com.example.echo.HalfClose GROUP ECHOES REPLIES}: GROUP
 * {@code netty} builds the server's event loops with Netty's own constructor, {@code transports} with
 * secio's {@code Transports.EPOLL}. The client runs on NIO. Prints a line per round that did not get
 * every byte back in order, then {@code echo: lost F of N rounds} and {@code reply: lost F of N
 * rounds}.
 */
public final class HalfClose {
  private static final int TOTAL_IN_BYTES = 9_000_000;
  private static final int WRITE_IN_BYTES = 64 * 1024;
  private static final int CLIENT_RECEIVE_BUFFER_IN_BYTES = 32 * 1024;
  private static final byte[] REQUEST = "the whole answer, please".getBytes(StandardCharsets.US_ASCII);
  /** Only guards against a hang; a round takes about a second. */
  private static final long HANG_GUARD_SECONDS = 120;

  private HalfClose() {}

  public static void main(String[] args) throws Exception {
    EventLoopGroup serverGroup = args[0].equals("netty")
        ? new MultiThreadIoEventLoopGroup(EpollIoHandler.newFactory())
        : Transports.EPOLL.newEventLoopGroup(0);
    EventLoopGroup clientGroup = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    byte[] payload = new byte[TOTAL_IN_BYTES];
    new Random(31).nextBytes(payload);
    SecureRandom random = new SecureRandom();
    SecioConfig server = config(random);
    // A v0.2 client that offers AES-128-GCM alone.
    SecioConfig client = config(random).toBuilder().ciphers(List.of(CipherAlgorithm.AES_128_GCM)).build();
    try {
      Rounds echo = new Rounds(serverGroup, clientGroup, server, client, Echo::new);
      System.out.println("echo: lost " + echo.run(Integer.parseInt(args[1]), payload, payload)
          + " of " + args[1] + " rounds");
      Rounds reply = new Rounds(serverGroup, clientGroup, server, client, () -> new Reply(payload));
      System.out.println("reply: lost " + reply.run(Integer.parseInt(args[2]), REQUEST, payload)
          + " of " + args[2] + " rounds");
    } finally {
      clientGroup.shutdownGracefully(0, HANG_GUARD_SECONDS, TimeUnit.SECONDS).sync();
      serverGroup.shutdownGracefully(0, HANG_GUARD_SECONDS, TimeUnit.SECONDS).sync();
    }
  }

  private static SecioConfig config(SecureRandom random) {
    return SecioConfig.builder(IdentityKeyPair.generate(KeyType.ED25519, random))
        .mode(SecioMode.V0_2_ONLY)
        // The first handshake of a JVM also self-tests the crypto backends: slow on a busy machine.
        .handshakeTimeout(Duration.ofSeconds(HANG_GUARD_SECONDS))
        .build();
  }

  /** A server application that says when the client may start reading. */
  private abstract static class Application extends ChannelInboundHandlerAdapter {
    final CompletableFuture<Void> readNow = new CompletableFuture<>();
  }

  /** One server with one application, and its clients, one connection per round. */
  private static final class Rounds {
    private final EventLoopGroup serverGroup;
    private final EventLoopGroup clientGroup;
    private final SecioConfig server;
    private final SecioConfig client;
    private final Supplier<Application> applications;
    private final LinkedBlockingQueue<Application> accepted = new LinkedBlockingQueue<>();

    Rounds(EventLoopGroup serverGroup, EventLoopGroup clientGroup, SecioConfig server,
        SecioConfig client, Supplier<Application> applications) {
      this.serverGroup = serverGroup;
      this.clientGroup = clientGroup;
      this.server = server;
      this.client = client;
      this.applications = applications;
    }

    /** How many of {@code rounds} connections sending {@code sent} did not get {@code expected}. */
    int run(int rounds, byte[] sent, byte[] expected) throws Exception {
      Channel listener = new ServerBootstrap().group(serverGroup)
          .channel(EpollServerSocketChannel.class)
          .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
          .childOption(ChannelOption.TCP_NODELAY, true)
          .childHandler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              Application application = applications.get();
              accepted.add(application);
              ch.pipeline().addLast(Secio.server(server), application);
            }
          })
          .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
      int lost = 0;
      try {
        for (int round = 0; round < rounds; round++) {
          String failure = round(listener, sent, expected);
          if (failure != null) {
            lost++;
            System.out.println("round " + round + ": " + failure);
          }
        }
      } finally {
        listener.close().sync();
      }
      return lost;
    }

    /** One connection: null if every byte came back in order, else what went wrong. */
    private String round(Channel listener, byte[] sent, byte[] expected) throws Exception {
      Received received = new Received(expected);
      Channel ch = new Bootstrap().group(clientGroup).channel(NioSocketChannel.class)
          .option(ChannelOption.ALLOW_HALF_CLOSURE, true)
          .option(ChannelOption.AUTO_READ, false)
          .option(ChannelOption.SO_RCVBUF, CLIENT_RECEIVE_BUFFER_IN_BYTES)
          .handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel c) {
              c.pipeline().addLast(Secio.client(client), received);
            }
          })
          .connect(listener.localAddress()).sync().channel();
      Secio.handshakeFuture(ch).get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
      for (int offset = 0; offset < sent.length; offset += WRITE_IN_BYTES) {
        int length = Math.min(WRITE_IN_BYTES, sent.length - offset);
        ch.writeAndFlush(Unpooled.wrappedBuffer(sent, offset, length));
      }
      CompletableFuture<Void> written = new CompletableFuture<>();
      Secio.shutdownOutput(ch).addListener(f -> written.complete(null));
      Application application = accepted.poll(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
      CompletableFuture.anyOf(application.readNow, written).get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
      ch.eventLoop().execute(() -> ch.config().setAutoRead(true));
      String outcome = received.outcome.get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
      ch.close().sync();
      return outcome;
    }
  }

  /** Echoes each read, flushes at read-complete, pauses reading while unwritable, ends after the client. */
  private static final class Echo extends Application {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ctx.write(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      ctx.flush();
      ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
      boolean writable = ctx.channel().isWritable();
      ctx.channel().config().setAutoRead(writable);
      if (!writable) {
        readNow.complete(null);
      }
      ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof ChannelInputShutdownEvent) {
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
      }
      ctx.fireUserEventTriggered(evt);
    }
  }

  /** Answers the end of the request with the whole payload, then closes. */
  private static final class Reply extends Application {
    private final byte[] answer;

    Reply(byte[] answer) {
      this.answer = answer;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ReferenceCountUtil.release(msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof ChannelInputShutdownEvent) {
        ctx.writeAndFlush(Unpooled.wrappedBuffer(answer)).addListener(ChannelFutureListener.CLOSE);
        readNow.complete(null);
      }
      ctx.fireUserEventTriggered(evt);
    }
  }

  /** Compares what comes back with what is expected; completes at the end of the stream. */
  private static final class Received extends ChannelInboundHandlerAdapter {
    final CompletableFuture<String> outcome = new CompletableFuture<>();
    private final byte[] expected;
    private int count;
    private boolean differs;

    Received(byte[] expected) {
      this.expected = expected;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf buf = (ByteBuf) msg;
      try {
        byte[] chunk = new byte[buf.readableBytes()];
        buf.readBytes(chunk);
        int end = count + chunk.length;
        differs |= end > expected.length || !Arrays.equals(chunk, 0, chunk.length, expected, count, end);
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
      outcome.complete(differs ? "what came back differs from what was expected"
          : count == expected.length ? null : "received " + count + " of " + expected.length + " bytes");
    }
  }
}
