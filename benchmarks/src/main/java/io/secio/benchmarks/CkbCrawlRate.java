package io.secio.benchmarks;

import io.netty.channel.ChannelFuture;
import io.netty.util.concurrent.Future;
import io.secio.ckb.Ckb;
import io.secio.ckb.CkbSession;
import io.secio.ckb.Node;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Crawl sessions per second against our own CKB listener on loopback ({@link CkbPeers}): each one
 * connects, completes secio (tentacle dialect, secp256k1) and yamux, exchanges Identify both ways,
 * sends one GetNodes and reads its answer, says goodbye on the disconnect message and waits for the
 * connection to close. {@code LANES} crawls at once (each lane with its own keys), after {@code
 * -Decho.warmUpSeconds} (8) untimed, then {@code SECONDS} timed. Prints one JSON object.
 *
 * <pre>java -cp benchmarks.jar io.secio.benchmarks.CkbCrawlRate LANES SECONDS</pre>
 */
public final class CkbCrawlRate {
  private static final long WARM_UP_NANOS = TimeUnit.SECONDS.toNanos(Long.getLong("echo.warmUpSeconds", 8));
  /** Keys per lane: a key's previous session may still be closing on the listener's side. */
  private static final int KEYS_PER_LANE = 4;

  private CkbCrawlRate() {}

  public static void main(String[] args) throws Exception {
    int lanes = Integer.parseInt(args[0]);
    int seconds = Integer.parseInt(args[1]);
    String load = Files.readString(Path.of("/proc/loadavg")).trim();
    try (CkbPeers peers = new CkbPeers(lanes * KEYS_PER_LANE)) {
      run(peers, lanes, System.nanoTime() + WARM_UP_NANOS);
      long started = System.nanoTime();
      long sessions = run(peers, lanes, started + TimeUnit.SECONDS.toNanos(seconds));
      double elapsed = (System.nanoTime() - started) / 1e9;
      System.out.println(String.format(Locale.ROOT,
          "{\"benchmark\": \"CkbCrawlRate\", \"lanes\": %d, \"sessions\": %d, \"seconds\": %.3f, "
              + "\"sessionsPerSecond\": %.1f, \"loadBefore\": \"%s\"}",
          lanes, sessions, elapsed, sessions / elapsed, load));
    }
  }

  private static long run(CkbPeers peers, int lanes, long endNanos) throws Exception {
    AtomicLong sessions = new AtomicLong();
    CompletableFuture<?>[] done = new CompletableFuture<?>[lanes];
    for (int lane = 0; lane < lanes; lane++) {
      CompletableFuture<Void> laneDone = new CompletableFuture<>();
      done[lane] = laneDone;
      crawl(peers, endNanos, sessions, laneDone);
    }
    CompletableFuture.allOf(done).get(10 * Loopback.TIMEOUT_SECONDS, TimeUnit.SECONDS);
    return sessions.get();
  }

  /** One crawl, then the next until {@code endNanos}. */
  private static void crawl(CkbPeers peers, long endNanos, AtomicLong sessions, CompletableFuture<Void> done) {
    if (System.nanoTime() >= endNanos) {
      done.complete(null);
      return;
    }
    ChannelFuture connect = peers.dial();
    connect.addListener(c -> {
      if (!c.isSuccess()) {
        done.completeExceptionally(c.cause());
        return;
      }
      Ckb.sessionFuture(connect.channel()).addListener((Future<CkbSession> identified) -> {
        if (!identified.isSuccess()) {
          done.completeExceptionally(identified.cause());
          return;
        }
        CkbSession session = identified.getNow();
        session.nodes().addListener((Future<List<Node>> nodes) -> {
          if (!nodes.isSuccess() || nodes.getNow().size() != 1) {
            done.completeExceptionally(new IllegalStateException("no answer to GetNodes: " + nodes.cause()));
            return;
          }
          session.disconnect("crawl done").addListener(closed -> {
            sessions.incrementAndGet();
            crawl(peers, endNanos, sessions, done);
          });
        });
      });
    });
  }
}
