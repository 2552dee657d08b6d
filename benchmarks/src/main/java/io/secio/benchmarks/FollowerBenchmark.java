package io.secio.benchmarks;

import io.netty.channel.Channel;
import io.secio.ckb.CkbConfig;
import io.secio.ckb.CkbEvent;
import io.secio.ckb.HeaderSync;
import io.secio.ckb.LoopbackNodes;
import io.secio.ckb.chain.Checkpoint;
import io.secio.ckb.chain.HeaderChain;
import io.secio.ckb.chain.HeaderFollower;
import io.secio.ckb.chain.Tip;
import io.secio.ckb.header.ChainGenerator;
import io.secio.ckb.header.Header;
import io.secio.ckb.header.Pow;
import io.secio.ckb.store.HeaderStore;
import io.secio.multiaddr.Multiaddr;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A header follower's rate over loopback: a Java node holds {@value #HEADERS} headers (real, easy
 * proofs of work under {@code pow}) and serves them over Sync; one op is a fresh follower with an
 * empty store dialling it (secio, yamux, Identify) and following every batch until the node has no
 * more: {@code GetHeaders}, a 2000-header {@code SendHeaders} through the compress codec, each header
 * checked, one fsynced commit per batch. Headers per second = ops/s (JMH divides by the headers).
 * DUMMY leaves the PoW out: the network, the codec, the other rules and the store.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 10)
@Measurement(iterations = 5, time = 10)
@Fork(1)
public class FollowerBenchmark {
  /** Headers the node serves after genesis: ten full batches. */
  static final int HEADERS = 20_000;

  @Param({"EAGLESONG", "DUMMY"})
  Pow pow;

  private ChainGenerator generator;
  private Clock clock;
  private Path dir;
  private HeaderStore nodeStore;
  private HeaderFollower node;
  private LoopbackNodes peers;
  private Multiaddr address;

  private HeaderStore followerStore;
  private HeaderFollower follower;
  private CkbConfig followerConfig;
  private CompletableFuture<Tip> synced;
  private int invocation;

  /** Mines the chain and starts the node on loopback. */
  @Setup(Level.Trial)
  public void startNode() throws Exception {
    generator = new ChainGenerator(1, pow, 1000);
    List<Header> chain = generator.chain(HEADERS);
    clock = Clock.fixed(Instant.ofEpochMilli(chain.get(HEADERS).timestamp() + 60_000), ZoneOffset.UTC);
    dir = Files.createTempDirectory("follower-benchmark");
    nodeStore = HeaderStore.open(dir.resolve("node.mv"), generator.consensus().genesisHash(),
        HeaderStore.DEFAULT_CACHE_MEGABYTES);
    node = HeaderFollower.open(nodeStore, generator.consensus(), clock, Checkpoint.of(chain.get(0)));
    for (int from = 1; from <= HEADERS; from += HeaderChain.MAX_HEADERS) {
      node.accept(chain.subList(from, from + HeaderChain.MAX_HEADERS)).join();
    }
    peers = new LoopbackNodes();
    address = peers.listen(CkbConfig.builder(generator.consensus().network()).localAddresses(true)
        .headers(node, HeaderSync.SERVE).build());
  }

  /** A follower with an empty store, not yet connected. */
  @Setup(Level.Invocation)
  public void newFollower() throws Exception {
    followerStore = HeaderStore.open(dir.resolve("follower" + invocation++ + ".mv"), generator.consensus().genesisHash(),
        HeaderStore.DEFAULT_CACHE_MEGABYTES);
    follower = HeaderFollower.open(followerStore, generator.consensus(), clock, Checkpoint.genesis(generator.consensus()));
    CompletableFuture<Tip> done = new CompletableFuture<>();
    synced = done;
    followerConfig = CkbConfig.builder(generator.consensus().network()).localAddresses(true)
        .headers(follower, HeaderSync.FOLLOW)
        .listener((session, event) -> {
          if (event instanceof CkbEvent.HeadersSynced s) {
            done.complete(s.tip());
          } else if (event instanceof CkbEvent.Closed c) {
            done.completeExceptionally(c.cause());
          }
        })
        .build();
  }

  /** Dials the node and follows all its headers. */
  @Benchmark
  @OperationsPerInvocation(HEADERS)
  public Tip follow() throws Exception {
    Channel connection = peers.dial(followerConfig, address);
    try {
      Tip tip = synced.get(Loopback.TIMEOUT_SECONDS, TimeUnit.SECONDS);
      if (tip.number() != HEADERS) {
        throw new IllegalStateException("synced at " + tip + ", not #" + HEADERS);
      }
      return tip;
    } finally {
      connection.close().syncUninterruptibly();
    }
  }

  /** Closes the follower and deletes its store. */
  @TearDown(Level.Invocation)
  public void closeFollower() throws Exception {
    follower.close();
    followerStore.close();
    Files.deleteIfExists(dir.resolve("follower" + (invocation - 1) + ".mv"));
  }

  /** Stops the node and deletes its store. */
  @TearDown(Level.Trial)
  public void stopNode() throws Exception {
    peers.close();
    node.close();
    nodeStore.close();
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
