package io.secio.benchmarks;

import com.sun.management.OperatingSystemMXBean;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.secio.streams.StreamChannel;
import io.secio.streams.StreamChannelBootstrap;
import io.secio.streams.mplex.MplexConfig;
import io.secio.streams.mplex.MplexHandler;
import io.secio.streams.yamux.YamuxConfig;
import io.secio.streams.yamux.YamuxHandler;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The echo of {@link Echo} over yamux or mplex streams inside one secio (AES-128-GCM) connection: the server's
 * streams write back what they read; the client opens {@code STREAMS} streams on one session and each
 * writes 64 KiB buffers while writable ({@link Echo.Client}, unchanged) until its bytes are back.
 * Warm-up as {@link Echo}'s (untimed echoes for {@code -Decho.warmUpSeconds}, 8 by default), then all
 * streams echo at once, timed from the first write to the last byte back. One event loop thread per
 * side. Prints one JSON object like {@link Echo}'s. {@code -Dstreams.muxer=mplex} for mplex (its
 * defaults; default: yamux); for yamux {@code -Dyamux.profile=libp2p} for the libp2p profile (default:
 * tentacle) and {@code -Dyamux.window=BYTES} for another max stream window; {@code
 * -Dstreams.notSentLowWater=BYTES} for another {@code TCP_NOTSENT_LOWAT} (0: the kernel's; default:
 * the muxer's); {@code -Decho.profile=FILE} as {@link Echo}'s.
 *
 * <pre>java -cp benchmarks.jar io.secio.benchmarks.StreamEcho STREAMS BYTES_PER_STREAM</pre>
 */
public final class StreamEcho {
  private static final long WARM_UP_NANOS = TimeUnit.SECONDS.toNanos(Long.getLong("echo.warmUpSeconds", 8));

  private StreamEcho() {}

  public static void main(String[] args) throws Exception {
    System.out.println(run(Integer.parseInt(args[0]), Long.parseLong(args[1])));
  }

  static YamuxConfig config() {
    YamuxConfig base = "libp2p".equals(System.getProperty("yamux.profile")) ? YamuxConfig.libp2p() : YamuxConfig.tentacle();
    YamuxConfig.Builder b = base.toBuilder();
    if (System.getProperty("yamux.window") != null) { // -Dyamux.window=BYTES: another max stream window
      b.maxStreamWindow(Integer.parseInt(System.getProperty("yamux.window")));
    }
    Integer lowWater = Integer.getInteger("streams.notSentLowWater");
    if (lowWater != null) {
      b.notSentLowWater(lowWater);
    }
    YamuxConfig sized = b.build();
    // Room for the benchmark's 64 streams at the full window: the session window is not what is measured.
    return sized.toBuilder().maxStreams(128).sessionWindow(128L * sized.maxStreamWindow()).build();
  }

  static MplexConfig mplexConfig() {
    Integer lowWater = Integer.getInteger("streams.notSentLowWater");
    return lowWater == null ? MplexConfig.defaults() : MplexConfig.builder().notSentLowWater(lowWater).build();
  }

  static String run(int streams, long bytes) throws Exception {
    String load = Files.readString(Path.of("/proc/loadavg")).trim();
    YamuxConfig config = config();
    ByteBuf chunk = Unpooled.directBuffer(Echo.CHUNK_IN_BYTES).writeBytes(Buffers.random(Echo.CHUNK_IN_BYTES));
    ChannelInitializer<Channel> echoStreams = new ChannelInitializer<>() {
      @Override
      protected void initChannel(Channel ch) {
        ch.pipeline().addLast(new Loopback.Echo());
      }
    };
    boolean mplex = "mplex".equals(System.getProperty("streams.muxer"));
    MplexConfig mplexConfig = mplexConfig();
    Supplier<ChannelHandler> server = mplex
        ? () -> MplexHandler.create(mplexConfig, echoStreams)
        : () -> YamuxHandler.server(config, echoStreams);
    try (Loopback loopback = new Loopback(Stack.SECIO_AES_128_GCM, 2, server)) {
      Channel connection = loopback.connectAndCheck(mplex ? MplexHandler.create(mplexConfig, null)
          : YamuxHandler.client(config, null));
      List<Echo.Client> clients = new ArrayList<>();
      List<Channel> channels = new ArrayList<>();
      for (int i = 0; i < streams; i++) {
        Echo.Client client = new Echo.Client(chunk);
        StreamChannel stream = new StreamChannelBootstrap(connection).handler(client).open()
            .get(Loopback.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        clients.add(client);
        channels.add(stream);
      }
      long warmUpStarted = System.nanoTime();
      do {
        echo(clients, channels, Math.max(Echo.CHUNK_IN_BYTES, bytes / 4));
      } while (System.nanoTime() - warmUpStarted < WARM_UP_NANOS);
      OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      long cpuBefore = os.getProcessCpuTime();
      Echo.Profiler profiler = Echo.Profiler.fromSystemProperty();
      long started = System.nanoTime();
      echo(clients, channels, bytes);
      profiler.stop();
      double seconds = (System.nanoTime() - started) / 1e9;
      double cpuSeconds = (os.getProcessCpuTime() - cpuBefore) / 1e9;
      for (Channel stream : channels) {
        stream.close().sync(); // before the connection: mplex has no goodbye, its streams would fail
      }
      connection.close().sync();
      double mib = (double) bytes * streams / (1 << 20);
      return String.format(Locale.ROOT,
          "{\"stack\": \"SECIO_AES_128_GCM+%s\", \"notSentLowWater\": %d, \"streams\": %d, \"bytesPerStream\": %d, \"seconds\": %.4f, "
              + "\"mibPerSecond\": %.1f, \"cpuSeconds\": %.3f, \"loadBefore\": \"%s\"}",
          mplex ? "MPLEX" : "YAMUX_" + System.getProperty("yamux.profile", "tentacle").toUpperCase(Locale.ROOT),
          mplex ? mplexConfig.notSentLowWater() : config.notSentLowWater(), streams, bytes, seconds,
          mib / seconds, cpuSeconds, load);
    } finally {
      chunk.release();
    }
  }

  private static void echo(List<Echo.Client> clients, List<Channel> channels, long bytes) throws Exception {
    List<CompletableFuture<Void>> done = new ArrayList<>();
    for (int i = 0; i < clients.size(); i++) {
      done.add(clients.get(i).start(channels.get(i), bytes));
    }
    CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(10 * Loopback.TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }
}
