package io.secio.netty.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.secio.HandshakeLimiter;
import io.secio.SecioConfig;
import io.secio.netty.Secio;
import io.secio.netty.SecioHandshakeCompletionEvent;
import io.secio.netty.Transports;
import io.secio.netty.hostile.HostileConfigs;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Many concurrent secio connections on loopback, each handshaking and echoing a block of data in both
 * directions, every byte checked. CI runs {@value #CI_CONNECTIONS} x 1 MiB; the full run is
 * {@code -Dsecio.load.connections=1000} (see docs/HOSTILE.md for the command and measured times);
 * {@code -Dsecio.load.bytes} and {@code -Dsecio.load.transport=NIO|EPOLL} change the block and transport.
 * Both sides respect writability, so memory stays bounded however many connections there are.
 */
class EchoLoadTest {
  static final int CI_CONNECTIONS = 1000;
  private static final int CONNECTIONS = Integer.getInteger("secio.load.connections", CI_CONNECTIONS);
  private static final int BYTES = Integer.getInteger("secio.load.bytes", 1024 * 1024);
  private static final long WAIT_SECONDS = Long.getLong("secio.load.waitSeconds", 600);
  private static final int CHUNK = 64 * 1024;
  /** The data: connection k sends BLOCK from offset 7919 k, wrapping. */
  private static final byte[] BLOCK = new byte[1 << 20];

  static {
    new Random(20240601).nextBytes(BLOCK);
  }

  /**
   * Copies the bytes connection {@code connection} sends at {@code offset} into {@code out}: whole
   * ranges of BLOCK, because with paranoid leak detection every single-byte access to a ByteBuf
   * records a stack trace.
   */
  static void expected(int connection, long offset, byte[] out, int length) {
    int done = 0;
    while (done < length) {
      int from = (int) ((offset + done + 7919L * connection) % BLOCK.length);
      int n = Math.min(length - done, BLOCK.length - from);
      System.arraycopy(BLOCK, from, out, done, n);
      done += n;
    }
  }

  /** The listener's end: echoes, pausing reads while it cannot write; counts what it received. */
  static final class Echo extends ChannelInboundHandlerAdapter {
    final ConcurrentLinkedQueue<Long> receivedPerConnection;
    private long received;

    Echo(ConcurrentLinkedQueue<Long> receivedPerConnection) {
      this.receivedPerConnection = receivedPerConnection;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      received += ((ByteBuf) msg).readableBytes();
      ctx.write(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      ctx.flush();
      if (!ctx.channel().isWritable()) {
        ctx.channel().config().setAutoRead(false);
      }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
      if (ctx.channel().isWritable()) {
        ctx.channel().config().setAutoRead(true);
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      receivedPerConnection.add(received);
    }
  }

  /** The dialer's end: sends its block while writable, checks every echoed byte, closes when done. */
  static final class Sender extends ChannelInboundHandlerAdapter {
    final int connection;
    final CompletableFuture<Long> echoed = new CompletableFuture<>();
    private long sent;
    private long received;

    Sender(int connection) {
      this.connection = connection;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof SecioHandshakeCompletionEvent) {
        if (((SecioHandshakeCompletionEvent) evt).isSuccess()) {
          send(ctx);
        } else {
          echoed.completeExceptionally(((SecioHandshakeCompletionEvent) evt).cause());
        }
      }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
      send(ctx);
    }

    private void send(ChannelHandlerContext ctx) {
      while (ctx.channel().isWritable() && sent < BYTES) {
        int n = (int) Math.min(CHUNK, BYTES - sent);
        byte[] data = new byte[n];
        expected(connection, sent, data, n);
        ctx.write(ctx.alloc().buffer(n).writeBytes(data));
        sent += n;
      }
      ctx.flush();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf buf = (ByteBuf) msg;
      byte[] got = new byte[buf.readableBytes()];
      buf.readBytes(got);
      buf.release();
      byte[] want = new byte[got.length];
      expected(connection, received, want, want.length);
      int at = Arrays.mismatch(got, want);
      if (at >= 0 || received + got.length > BYTES) {
        echoed.completeExceptionally(new AssertionError(
            "connection " + connection + ": byte " + (received + Math.max(at, 0)) + " differs or is extra"));
        ctx.close();
        return;
      }
      received += got.length;
      if (received == BYTES) {
        echoed.complete(received);
        ctx.close();
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      echoed.completeExceptionally(cause);
      ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      echoed.completeExceptionally(new AssertionError(
          "connection " + connection + " closed after " + received + " of " + BYTES + " bytes"));
    }
  }

  /** CPU time of this JVM, all threads: unlike the wall clock, not inflated by other loads on the host. */
  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  @Test
  void everyConnectionHandshakesAndEchoesEveryByte() throws Exception {
    Transports transport = Transports.valueOf(System.getProperty("secio.load.transport", Transports.best().name()));
    EventLoopGroup serverGroup = transport.newEventLoopGroup(2);
    EventLoopGroup clientGroup = transport.newEventLoopGroup(2);
    // The bound is raised to let all of them handshake at once; the default (512) would refuse the
    // rest with TOO_MANY_HANDSHAKES, which HalfOpenHandshakesTest covers.
    SecioConfig serverConfig = HostileConfigs.node()
        .handshakeTimeout(Duration.ofSeconds(120))
        .maxConcurrentHandshakes(Math.max(CONNECTIONS, SecioConfig.DEFAULT_MAX_CONCURRENT_HANDSHAKES))
        .maxConcurrentHandshakesPerSource(Math.max(CONNECTIONS, SecioConfig.DEFAULT_MAX_CONCURRENT_HANDSHAKES))
        .build(); // every dialer is on 127.0.0.1: its share is the whole bound
    SecioConfig clientConfig = SecioConfig.builder(HostileConfigs.peerIdentity())
        .handshakeTimeout(Duration.ofSeconds(120)).build();
    HandshakeLimiter limiter = serverConfig.handshakeLimiter();
    ConcurrentLinkedQueue<Long> serverReceived = new ConcurrentLinkedQueue<>();
    AtomicInteger serverHandshakes = new AtomicInteger();
    try {
      Channel listener = new ServerBootstrap()
          .group(serverGroup)
          .channel(transport.serverChannelClass())
          .option(ChannelOption.SO_BACKLOG, 4096)
          .childHandler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              ch.pipeline().addLast(Secio.server(serverConfig), new Echo(serverReceived));
              Secio.handshakeFuture(ch).addListener(f -> {
                if (f.isSuccess()) {
                  serverHandshakes.incrementAndGet();
                }
              });
            }
          })
          .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();

      long start = System.nanoTime();
      long cpuStart = processCpuNanos();
      List<Sender> senders = new ArrayList<>();
      List<ChannelFuture> connects = new ArrayList<>();
      Bootstrap b = new Bootstrap().group(clientGroup).channel(transport.channelClass());
      for (int i = 0; i < CONNECTIONS; i++) {
        Sender sender = new Sender(i);
        senders.add(sender);
        connects.add(b.handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(Secio.client(clientConfig, serverConfig.localPeerId()), sender);
          }
        }).connect(listener.localAddress()));
      }
      List<Channel> clients = new ArrayList<>();
      for (ChannelFuture connect : connects) {
        // Connected means registered, so the secio handlers (and the handshake future) are in place.
        assertTrue(connect.await(WAIT_SECONDS, TimeUnit.SECONDS) && connect.isSuccess(), () -> "connect: " + connect.cause());
        clients.add(connect.channel());
      }
      for (Channel ch : clients) {
        assertTrue(Secio.handshakeFuture(ch).await(WAIT_SECONDS, TimeUnit.SECONDS), "handshake hung");
        assertTrue(Secio.handshakeFuture(ch).isSuccess(), () -> "handshake: " + Secio.handshakeFuture(ch).cause());
      }
      long handshaken = System.nanoTime();
      for (Sender s : senders) {
        assertEquals(BYTES, s.echoed.get(WAIT_SECONDS, TimeUnit.SECONDS));
      }
      long done = System.nanoTime();
      for (Channel ch : clients) {
        ch.closeFuture().await(WAIT_SECONDS, TimeUnit.SECONDS);
      }
      listener.close().sync();

      assertEquals(CONNECTIONS, serverHandshakes.get());
      assertEquals(0, limiter.active(), "handshake permits not all returned");
      // Server channels close once their client has gone: wait for every count to come in.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
      while (serverReceived.size() < CONNECTIONS && System.nanoTime() < deadline) {
        serverGroup.next().submit(() -> { }).await(1, TimeUnit.SECONDS);
      }
      assertEquals(CONNECTIONS, serverReceived.size());
      for (long r : serverReceived) {
        assertEquals(BYTES, r, "a listener channel received other than the block");
      }
      double seconds = (done - start) / 1e9;
      System.out.printf("secio load: %d connections x %d bytes each way on %s, %d cores: all handshakes done"
              + " after %.1f s, all echoes after %.1f s (%.0f MiB/s of plaintext each way), %.1f s of CPU%n",
          CONNECTIONS, BYTES, transport, Runtime.getRuntime().availableProcessors(),
          (handshaken - start) / 1e9, seconds, (double) CONNECTIONS * BYTES / (1 << 20) / seconds,
          (processCpuNanos() - cpuStart) / 1e9);
    } finally {
      clientGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
      serverGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
    }
  }
}
