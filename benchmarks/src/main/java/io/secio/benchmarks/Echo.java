package io.secio.benchmarks;

import com.sun.management.OperatingSystemMXBean;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One run of the echo a user would write to compare stacks, in this JVM: the server writes back what
 * it reads and flushes on read-complete ({@link Loopback.Echo}); each client writes 64 KiB direct
 * buffers while its channel is writable and counts the echo, until {@code bytes} have come back. Only
 * the security handler differs between stacks. One connection runs with one event loop thread per
 * side; more connections run on Netty's default event loop count per side, as a node serving many
 * peers would.
 *
 * <p>Every connection first echoes a quarter of its bytes untimed (the JIT's warm-up), then all
 * connections echo {@code bytes} each at once, timed from the first write to the last byte back.
 * Prints one JSON object: stack, connections, bytes per connection, seconds, MiB/s of echoed payload
 * (all connections together), the process CPU seconds, and the load average before the run.
 *
 * <pre>java -cp benchmarks.jar io.secio.benchmarks.Echo STACK CONNECTIONS BYTES_PER_CONNECTION</pre>
 *
 * {@link EchoSuite} runs it for every stack, interleaved, each run in a JVM of its own.
 */
public final class Echo {
  /** What the client writes at a time. */
  static final int CHUNK_IN_BYTES = 64 * 1024;
  /** How long every run warms up before it is timed: {@code -Decho.warmUpSeconds}, 8 by default. */
  private static final long WARM_UP_NANOS =
      TimeUnit.SECONDS.toNanos(Long.getLong("echo.warmUpSeconds", 8));

  private Echo() {}

  public static void main(String[] args) throws Exception {
    Stack stack = Stack.valueOf(args[0]);
    int connections = Integer.parseInt(args[1]);
    long bytes = Long.parseLong(args[2]);
    System.out.println(run(stack, connections, bytes));
    // Netty's non-daemon threads are shut down by Loopback.close(); nothing else keeps the JVM.
  }

  static String run(Stack stack, int connections, long bytes) throws Exception {
    String load = Files.readString(Path.of("/proc/loadavg")).trim();
    ByteBuf chunk = Unpooled.directBuffer(CHUNK_IN_BYTES).writeBytes(Buffers.random(CHUNK_IN_BYTES));
    try (Loopback loopback = connections == 1
        ? new Loopback(stack, 2, Loopback.Echo::new)
        : Loopback.withDefaultEventLoops(stack, Loopback.Echo::new)) {
      List<Client> clients = new ArrayList<>();
      List<Channel> channels = new ArrayList<>();
      for (int i = 0; i < connections; i++) {
        Client client = new Client(chunk);
        clients.add(client);
        channels.add(loopback.connectAndCheck(client));
      }
      warmUp(clients, channels, Math.max(CHUNK_IN_BYTES, bytes / 4));
      OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      long cpuBefore = os.getProcessCpuTime();
      long switchesBefore = voluntaryContextSwitches();
      Profiler profiler = Profiler.fromSystemProperty();
      long started = System.nanoTime();
      echo(clients, channels, bytes);
      double seconds = (System.nanoTime() - started) / 1e9;
      profiler.stop();
      double cpuSeconds = (os.getProcessCpuTime() - cpuBefore) / 1e9;
      long switches = voluntaryContextSwitches() - switchesBefore;
      for (Channel channel : channels) {
        channel.close().sync();
      }
      double mib = (double) bytes * connections / (1 << 20);
      return String.format(Locale.ROOT,
          "{\"stack\": \"%s\", \"connections\": %d, \"bytesPerConnection\": %d, \"seconds\": %.4f, "
              + "\"mibPerSecond\": %.1f, \"cpuSeconds\": %.3f, \"waitsPerMib\": %.1f, "
              + "\"loadBefore\": \"%s\"}",
          stack, connections, bytes, seconds, mib / seconds, cpuSeconds, switches / mib, load);
    } finally {
      chunk.release();
    }
  }

  /**
   * How often this JVM's threads have blocked so far (voluntary context switches, from Linux's
   * /proc): each is a wait for a socket or a task, and on a busy machine a wait for a core, so a stack
   * that blocks less per byte keeps its throughput better under load. 0 where /proc is missing.
   */
  private static long voluntaryContextSwitches() {
    long sum = 0;
    try (var tasks = Files.list(Path.of("/proc/self/task"))) {
      for (Path task : (Iterable<Path>) tasks::iterator) {
        try {
          for (String line : Files.readAllLines(task.resolve("status"))) {
            if (line.startsWith("voluntary_ctxt_switches:")) {
              sum += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
          }
        } catch (java.io.IOException threadGone) {
          // A thread that ended between the listing and the read counts no more.
        }
      }
    } catch (java.io.IOException noProc) {
      return 0;
    }
    return sum;
  }

  /**
   * Echoes {@code bytes} per connection untimed, again and again until {@link #WARM_UP_NANOS} have
   * passed: on two cores the JIT's C2 compiler otherwise still takes close to a core through the
   * timed run (async-profiler showed 45 % of all samples in C2 after a single quarter-size warm-up,
   * for TLS as for secio), and the ratio measures the compiler rather than the stacks.
   */
  private static void warmUp(List<Client> clients, List<Channel> channels, long bytes) throws Exception {
    long started = System.nanoTime();
    do {
      echo(clients, channels, bytes);
    } while (System.nanoTime() - started < WARM_UP_NANOS);
  }

  /** Every client echoes {@code bytes} at once; returns when all of them are back. */
  private static void echo(List<Client> clients, List<Channel> channels, long bytes) throws Exception {
    List<CompletableFuture<Void>> done = new ArrayList<>();
    for (int i = 0; i < clients.size(); i++) {
      done.add(clients.get(i).start(channels.get(i), bytes));
    }
    CompletableFuture.allOf(done.toArray(CompletableFuture[]::new))
        .get(10 * Loopback.TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }

  /**
   * With {@code -Decho.profile=FILE} and async-profiler's jar on the class path (Maven Central
   * {@code tools.profiler:async-profiler}), the timed echo alone is profiled (CPU, collapsed stacks):
   * none of the start-up, the handshakes or the warm-up. Reflection keeps the benchmarks free of it.
   */
  record Profiler(Object instance, String file) {
    static Profiler fromSystemProperty() throws Exception {
      String file = System.getProperty("echo.profile");
      if (file == null) {
        return new Profiler(null, null);
      }
      Object instance = Class.forName("one.profiler.AsyncProfiler").getMethod("getInstance").invoke(null);
      instance.getClass().getMethod("execute", String.class).invoke(instance, "start,event=cpu,interval=1ms");
      return new Profiler(instance, file);
    }

    void stop() throws Exception {
      if (instance != null) {
        instance.getClass().getMethod("execute", String.class)
            .invoke(instance, "stop,collapsed,file=" + file);
      }
    }
  }

  /** The echo client: writes while writable, counts what comes back. */
  static final class Client extends ChannelInboundHandlerAdapter {
    private final ByteBuf chunk;
    private Channel channel;
    private long toSend;
    private long toReceive;
    private CompletableFuture<Void> done;

    Client(ByteBuf chunk) {
      this.chunk = chunk;
    }

    /** Echoes {@code bytes} more on {@code channel}; completes when the last of them is back. */
    CompletableFuture<Void> start(Channel channel, long bytes) {
      CompletableFuture<Void> started = new CompletableFuture<>();
      channel.eventLoop().execute(() -> {
        this.channel = channel;
        toSend = bytes;
        toReceive = bytes;
        done = started;
        writeWhileWritable();
      });
      return started;
    }

    private void writeWhileWritable() {
      boolean wrote = false;
      while (toSend > 0 && channel.isWritable()) {
        int n = (int) Math.min(CHUNK_IN_BYTES, toSend);
        channel.write(chunk.retainedSlice(0, n), channel.voidPromise());
        toSend -= n;
        wrote = true;
      }
      if (wrote) {
        channel.flush();
      }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
      if (channel != null && ctx.channel().isWritable()) {
        writeWhileWritable();
      }
      ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf buf = (ByteBuf) msg;
      toReceive -= buf.readableBytes();
      buf.release();
      if (toReceive <= 0 && done != null) {
        done.complete(null);
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      if (done != null) {
        done.completeExceptionally(cause);
      }
      ctx.close();
    }
  }
}
