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
      echo(clients, channels, Math.max(CHUNK_IN_BYTES, bytes / 4));
      OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      long cpuBefore = os.getProcessCpuTime();
      long started = System.nanoTime();
      echo(clients, channels, bytes);
      double seconds = (System.nanoTime() - started) / 1e9;
      double cpuSeconds = (os.getProcessCpuTime() - cpuBefore) / 1e9;
      for (Channel channel : channels) {
        channel.close().sync();
      }
      double mib = (double) bytes * connections / (1 << 20);
      return String.format(Locale.ROOT,
          "{\"stack\": \"%s\", \"connections\": %d, \"bytesPerConnection\": %d, \"seconds\": %.4f, "
              + "\"mibPerSecond\": %.1f, \"cpuSeconds\": %.3f, \"loadBefore\": \"%s\"}",
          stack, connections, bytes, seconds, mib / seconds, cpuSeconds, load);
    } finally {
      chunk.release();
    }
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
