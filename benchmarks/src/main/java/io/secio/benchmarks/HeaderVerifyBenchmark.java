package io.secio.benchmarks;

import io.secio.ckb.header.ChainGenerator;
import io.secio.ckb.header.Header;
import io.secio.ckb.header.HeaderException;
import io.secio.ckb.header.HeaderListVerifier;
import io.secio.ckb.header.Pow;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One full {@code SendHeaders} batch, 2000 consecutive headers with real proofs of work, checked in
 * memory as the follower checks it (parent, number, epoch, compact target, median time, PoW) under
 * mainnet's rule (Eaglesong) or testnet's (EaglesongBlake2b: one ckbhash more per header). The target
 * is easy, which changes nothing in the cost of checking. Headers verified per second = ops/s x 2000.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class HeaderVerifyBenchmark {
  /** A full SendHeaders. */
  static final int BATCH = 2000;

  @Param({"EAGLESONG", "EAGLESONG_BLAKE2B"})
  Pow pow;

  private List<Header> batch;
  private HeaderListVerifier verifier;

  /** Mines the chain (genesis and 2000 headers) once. */
  @Setup
  public void setUp() {
    ChainGenerator generator = new ChainGenerator(1, pow, 1000);
    batch = generator.chain(BATCH);
    Clock clock = Clock.fixed(Instant.ofEpochMilli(batch.get(BATCH).timestamp()), ZoneOffset.UTC);
    verifier = new HeaderListVerifier(generator.consensus(), clock);
    batch = batch.subList(1, BATCH + 1);
  }

  /** Checks the 2000 headers; fresh header objects each time, so no hash is cached from before. */
  @Benchmark
  public int verifyBatch() throws HeaderException {
    List<Header> fresh = batch.stream().map(h -> Header.fromBytes(h.toBytes())).toList();
    return verifier.verify(fresh);
  }
}
