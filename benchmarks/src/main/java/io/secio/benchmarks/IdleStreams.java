package io.secio.benchmarks;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.secio.streams.StreamChannel;
import io.secio.streams.StreamChannelBootstrap;
import io.secio.streams.yamux.YamuxConfig;
import io.secio.streams.yamux.YamuxHandler;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Heap per idle open yamux stream: one yamux session over plaintext loopback TCP in this JVM, both
 * ends; heap used after GC is measured before and after {@code N} streams are opened (each with one
 * handler, as a user's would have), and divided by the streams ends open ({@code 2 N}: each stream
 * lives on both sides). Prints one JSON object.
 *
 * <pre>java -cp benchmarks.jar io.secio.benchmarks.IdleStreams N [tentacle|libp2p]</pre>
 */
public final class IdleStreams {
  private IdleStreams() {}

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    YamuxConfig base = args.length > 1 && args[1].equals("libp2p") ? YamuxConfig.libp2p() : YamuxConfig.tentacle();
    YamuxConfig config = base.toBuilder().maxStreams(n + 1).sessionWindow((n + 1L) * 256 * 1024).build();
    EventLoopGroup group = new NioEventLoopGroup(2);
    try {
      AtomicInteger accepted = new AtomicInteger();
      ChannelInitializer<Channel> idle = new ChannelInitializer<>() {
        @Override
        protected void initChannel(Channel ch) {
          ch.pipeline().addLast(new ChannelInboundHandlerAdapter());
          accepted.incrementAndGet();
        }
      };
      Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
          .childHandler(new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
              ch.pipeline().addLast(YamuxHandler.server(config, idle));
            }
          }).bind("127.0.0.1", 0).sync().channel();
      Channel connection = new Bootstrap().group(group).channel(NioSocketChannel.class)
          .handler(YamuxHandler.client(config, null)).connect(server.localAddress()).sync().channel();
      // One stream first, so classes and the session's own structures are not counted per stream.
      List<StreamChannel> streams = new ArrayList<>();
      streams.add(open(connection));
      long before = usedAfterGc();
      for (int i = 0; i < n; i++) {
        streams.add(open(connection));
      }
      for (long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5); accepted.get() < n + 1; ) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the peer accepted " + accepted.get() + " of " + (n + 1));
        }
        TimeUnit.MILLISECONDS.sleep(10);
      }
      long after = usedAfterGc();
      double perEnd = (after - before) / (2.0 * n);
      System.out.println(String.format(Locale.ROOT,
          "{\"profile\": \"%s\", \"streams\": %d, \"heapBefore\": %d, \"heapAfter\": %d, \"bytesPerStreamEnd\": %.0f, "
              + "\"bytesPerStreamBothEnds\": %.0f}",
          args.length > 1 ? args[1] : "tentacle", n, before, after, perEnd, 2 * perEnd));
      if (streams.size() != n + 1) {
        throw new AssertionError("streams lost");
      }
      connection.close().sync();
      server.close().sync();
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }
  }

  private static StreamChannel open(Channel connection) throws Exception {
    return new StreamChannelBootstrap(connection).handler(new ChannelInboundHandlerAdapter()).open()
        .get(Loopback.TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }

  static long usedAfterGc() throws InterruptedException {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      TimeUnit.MILLISECONDS.sleep(200);
      used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    }
    return used;
  }
}
