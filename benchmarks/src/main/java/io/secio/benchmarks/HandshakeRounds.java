package io.secio.benchmarks;

import com.sun.management.OperatingSystemMXBean;
import io.netty.channel.Channel;
import io.secio.identity.KeyType;
import io.secio.protocol.ExchangeAlgorithm;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Handshakes with {@value HandshakeBenchmark#IN_FLIGHT} in flight, as {@link
 * HandshakeBenchmark#inParallel}, but interleaved: every handshake kind gets a slot of {@code SLOT_MS}
 * in every round, one after the other in one JVM, so a ratio compares slots a few seconds apart under
 * the same load. Each slot reports handshakes per second and the process's CPU time per handshake
 * (both ends; steadier than the wall clock on a shared machine).
 *
 * <pre>java -cp benchmarks.jar io.secio.benchmarks.HandshakeRounds OUT.jsonl ROUNDS SLOT_MS</pre>
 *
 * Kinds: {@code TLS13}; secio P-256 and X25519 with Ed25519 identities, once with one client
 * identity (the node meets the same peer again and again: its key is checked once and remembered)
 * and once with 2,048 (more than the 1,024 keys a node remembers: every handshake decodes and checks
 * the client's key).
 */
public final class HandshakeRounds {
  private HandshakeRounds() {}

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args[0]);
    int rounds = Integer.parseInt(args[1]);
    long slotMillis = Long.parseLong(args[2]);
    Map<String, Loopback> kinds = new LinkedHashMap<>();
    kinds.put("TLS13", new Loopback(Stack.TLS13_AES_128_GCM, Loopback.Quiet::new));
    for (ExchangeAlgorithm exchange : List.of(ExchangeAlgorithm.P_256, ExchangeAlgorithm.X25519)) {
      for (int peers : new int[] {1, 2048}) {
        kinds.put(exchange + ":ED25519/peers=" + peers, new Loopback(Stack.SECIO_AES_128_GCM,
            KeyType.ED25519, exchange, peers, Loopback.DEFAULT_FRAME, Loopback.Quiet::new));
      }
    }
    Files.deleteIfExists(out);
    try {
      // Warm-up, four slots each: with 8 in flight on 2 cores the JIT takes ~15 s (HandshakeBenchmark).
      for (Map.Entry<String, Loopback> kind : kinds.entrySet()) {
        slot(kind.getValue(), 4 * slotMillis);
      }
      for (int round = 0; round < rounds; round++) {
        List<Map.Entry<String, Loopback>> order = new ArrayList<>(kinds.entrySet());
        java.util.Collections.rotate(order, -round);
        for (Map.Entry<String, Loopback> kind : order) {
          String load = Files.readString(Path.of("/proc/loadavg")).trim();
          double[] result = slot(kind.getValue(), slotMillis);
          String line = String.format(Locale.ROOT,
              "{\"round\": %d, \"kind\": \"%s\", \"perSecond\": %.1f, \"cpuMicrosPerHandshake\": %.1f, "
                  + "\"loadBefore\": \"%s\"}", round, kind.getKey(), result[0], result[1], load);
          System.err.println("HandshakeRounds: " + line);
          Files.writeString(out, line + "\n", StandardCharsets.UTF_8,
              StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
      }
    } finally {
      kinds.values().forEach(Loopback::close);
    }
  }

  /** Handshakes per second and CPU microseconds per handshake over one slot. */
  private static double[] slot(Loopback loopback, long millis) throws Exception {
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    AtomicLong count = new AtomicLong();
    long deadline = System.nanoTime() + millis * 1_000_000;
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    long cpuBefore = os.getProcessCpuTime();
    long started = System.nanoTime();
    for (int i = 0; i < HandshakeBenchmark.IN_FLIGHT; i++) {
      Thread thread = new Thread(() -> {
        try {
          while (System.nanoTime() < deadline) {
            Channel channel = loopback.connect(new Loopback.Quiet(), true);
            try {
              loopback.awaitHandshake(channel);
            } finally {
              channel.close().sync();
            }
            count.incrementAndGet();
          }
        } catch (Throwable t) {
          failures.add(t);
        }
      });
      thread.start();
      threads.add(thread);
    }
    for (Thread thread : threads) {
      thread.join();
    }
    if (!failures.isEmpty()) {
      throw new IllegalStateException("a handshake failed", failures.get(0));
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    double cpuMicros = (os.getProcessCpuTime() - cpuBefore) / 1e3;
    return new double[] {count.get() / seconds, cpuMicros / Math.max(1, count.get())};
  }
}
