package io.secio.benchmarks;

import io.secio.ckb.chain.Checkpoint;
import io.secio.ckb.chain.HeaderChain;
import io.secio.ckb.header.ChainGenerator;
import io.secio.ckb.header.Header;
import io.secio.ckb.header.Pow;
import io.secio.ckb.store.HeaderStore;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A follower's cost on a segment of generated headers: how fast full {@code SendHeaders} batches are
 * checked and stored (one atomic, fsynced commit per 2000), and how many bytes each header takes on
 * disk. Not JMH: one pass, as a sync is.
 *
 * <pre>java -cp benchmarks.jar io.secio.benchmarks.HeaderStoreSegment [HEADERS [POW [CACHE_MB]]]</pre>
 *
 * <p>POW is DUMMY (default: the store's and the other rules' cost alone), EAGLESONG or
 * EAGLESONG_BLAKE2B (every header's PoW checked too).
 */
public final class HeaderStoreSegment {
  private HeaderStoreSegment() {}

  /**
   * Runs the segment and prints its numbers.
   *
   * @param args headers (100000), PoW rule (DUMMY), page cache in MiB (16)
   * @throws Exception on any failure
   */
  public static void main(String[] args) throws Exception {
    int count = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    Pow pow = args.length > 1 ? Pow.valueOf(args[1]) : Pow.DUMMY;
    int cache = args.length > 2 ? Integer.parseInt(args[2]) : HeaderStore.DEFAULT_CACHE_MEGABYTES;
    ChainGenerator generator = new ChainGenerator(1, pow, 1000);
    long mining = System.nanoTime();
    List<Header> chain = generator.chain(count);
    mining = System.nanoTime() - mining;
    Clock clock = Clock.fixed(Instant.ofEpochMilli(chain.get(count).timestamp()), ZoneOffset.UTC);
    Path dir = Files.createTempDirectory("header-store-segment");
    Path file = dir.resolve("headers.mv");
    try {
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      long cpuStarted = threads.getCurrentThreadCpuTime();
      long started = System.nanoTime();
      try (HeaderStore store = HeaderStore.open(file, generator.consensus().genesisHash(), cache)) {
        HeaderChain follower = HeaderChain.open(store, generator.consensus(), clock, Checkpoint.of(chain.get(0)));
        for (int from = 1; from <= count; from += HeaderChain.MAX_HEADERS) {
          follower.accept(chain.subList(from, Math.min(from + HeaderChain.MAX_HEADERS, count + 1)));
        }
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      double cpuSeconds = (threads.getCurrentThreadCpuTime() - cpuStarted) / 1e9;
      long bytes = Files.size(file);
      System.out.printf("headers %d, pow %s, cache %d MiB (generated in %.1f s)%n", count, pow, cache, mining / 1e9);
      System.out.printf("checked and stored in %.2f s: %.0f headers/s%n", seconds, count / seconds);
      // On a shared machine the wall clock counts other processes' time; this thread's CPU time does not.
      System.out.printf("this thread's CPU: %.2f s: %.0f headers per CPU second%n", cpuSeconds, count / cpuSeconds);
      System.out.printf("file %d bytes: %.1f bytes/header%n", bytes, (double) bytes / (count + 1));
      System.out.printf("heap used after: %d MiB%n",
          (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) >> 20);
    } finally {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
