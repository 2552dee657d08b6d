package io.secio.benchmarks;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.Future;
import io.secio.identity.KeyType;
import io.secio.netty.Transports;
import io.secio.protocol.ExchangeAlgorithm;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Heap per established idle connection, and whether one node holds them all. This JVM is the node: it
 * listens on loopback, and a second JVM (so that each process stays within its file limit) dials
 * {@code connections} connections through the handshake and leaves them idle. Heap per connection =
 * (used heap after GC with every connection up - the same after warm-up) / connections, on each side.
 *
 * <pre>java -cp benchmarks.jar io.secio.benchmarks.IdleConnections [connections] [stack] [out.json]</pre>
 */
public final class IdleConnections {
  private static final int WARM_UP_CONNECTIONS = 200;
  /** Handshakes in flight at once: enough to keep both cores busy, few enough to finish in time. */
  private static final int IN_FLIGHT = 32;

  private IdleConnections() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("dial")) {
      dial(Integer.parseInt(args[1]), Integer.parseInt(args[2]), Stack.valueOf(args[3]));
      return;
    }
    int connections = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
    Stack stack = args.length > 1 ? Stack.valueOf(args[1]) : Stack.SECIO_AES_128_GCM;
    Path out = args.length > 2 ? Path.of(args[2]) : null;
    String json = serve(connections, stack);
    System.out.println(json);
    if (out != null) {
      Files.writeString(out, json + "\n");
    }
  }

  /** The node: accepts, measures, and returns the result as one JSON object. */
  private static String serve(int connections, Stack stack) throws Exception {
    Transports transport = Transports.best();
    EventLoopGroup group = transport.newEventLoopGroup(2);
    AtomicInteger established = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    Stack.Side side = stack.side(true, KeyType.ED25519, ExchangeAlgorithm.P_256, Loopback.DEFAULT_FRAME);
    Channel listener = new ServerBootstrap()
        .group(group)
        .channel(transport.serverChannelClass())
        .option(ChannelOption.SO_BACKLOG, 4096)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            side.addTo(ch);
            ch.pipeline().addLast(new Loopback.Quiet());
            side.handshake(ch).addListener(f -> (f.isSuccess() ? established : failed).incrementAndGet());
          }
        })
        .bind(new InetSocketAddress("127.0.0.1", 0))
        .sync()
        .channel();
    int port = ((InetSocketAddress) listener.localAddress()).getPort();
    Process dialer = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"),
            IdleConnections.class.getName(), "dial", String.valueOf(port),
            String.valueOf(connections), stack.name())
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    long started = System.nanoTime();
    try (BufferedReader fromDialer = new BufferedReader(
            new InputStreamReader(dialer.getInputStream(), StandardCharsets.UTF_8));
        PrintStream toDialer = new PrintStream(dialer.getOutputStream(), true, StandardCharsets.UTF_8)) {
      expect(fromDialer, "WARM");
      long baseline = usedHeapAfterGc();
      int before = established.get();
      toDialer.println("GO");
      String ready = expect(fromDialer, "READY");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (established.get() + failed.get() - before < connections && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      int held = established.get() - before;
      double seconds = (System.nanoTime() - started) / 1e9;
      long used = usedHeapAfterGc();
      toDialer.println("DONE");
      String clientLine = expect(fromDialer, "CLIENT");
      dialer.waitFor(60, TimeUnit.SECONDS);
      return String.format(Locale.ROOT,
          "{\"stack\": \"%s\", \"connections\": %d, \"established\": %d, \"failed\": %d,"
              + " \"serverHeapBytesPerConnection\": %d, \"clientHeapBytesPerConnection\": %s,"
              + " \"clientEstablished\": %s, \"seconds\": %.1f, \"maxHeapBytes\": %d}",
          stack, connections, held, failed.get(), (used - baseline) / Math.max(1, held),
          clientLine.split(" ")[1], ready.split(" ")[1], seconds,
          Runtime.getRuntime().maxMemory());
    } finally {
      dialer.destroy();
      listener.close().sync();
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }
  }

  /**
   * The other side, in its own JVM: warms up, dials {@code connections} connections through their
   * handshakes when told, reports, and measures its own heap per connection too.
   */
  private static void dial(int port, int connections, Stack stack) throws Exception {
    Transports transport = Transports.best();
    EventLoopGroup group = transport.newEventLoopGroup(2);
    Stack.Side side = stack.side(false, KeyType.ED25519, ExchangeAlgorithm.P_256, Loopback.DEFAULT_FRAME);
    Bootstrap bootstrap = new Bootstrap()
        .group(group)
        .channel(transport.channelClass())
        .handler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            side.addTo(ch);
            ch.pipeline().addLast(new Loopback.Quiet());
          }
        });
    InetSocketAddress server = new InetSocketAddress("127.0.0.1", port);
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (Channel c : open(bootstrap, server, side, WARM_UP_CONNECTIONS, new AtomicInteger())) {
      c.close().sync();
    }
    long baseline = usedHeapAfterGc();
    System.out.println("WARM");
    expect(in, "GO");
    AtomicInteger established = new AtomicInteger();
    open(bootstrap, server, side, connections, established);
    System.out.println("READY " + established.get());
    expect(in, "DONE");
    long used = usedHeapAfterGc();
    System.out.println("CLIENT " + (used - baseline) / Math.max(1, established.get()));
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
  }

  /** Opens {@code count} connections, at most {@link #IN_FLIGHT} handshakes at a time. */
  private static List<Channel> open(Bootstrap bootstrap, InetSocketAddress server, Stack.Side side,
      int count, AtomicInteger established) throws InterruptedException {
    Semaphore inFlight = new Semaphore(IN_FLIGHT);
    List<Channel> channels = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      inFlight.acquire();
      Channel channel = bootstrap.connect(server).sync().channel();
      channels.add(channel);
      Future<?> handshake = side.handshake(channel);
      handshake.addListener(f -> {
        if (f.isSuccess()) {
          established.incrementAndGet();
        }
        inFlight.release();
      });
    }
    inFlight.acquire(IN_FLIGHT);
    return channels;
  }

  private static String expect(BufferedReader in, String word) throws Exception {
    String line = in.readLine();
    if (line == null || !line.startsWith(word)) {
      throw new IllegalStateException("expected " + word + ", got " + line);
    }
    return line;
  }

  private static long usedHeapAfterGc() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(200);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
