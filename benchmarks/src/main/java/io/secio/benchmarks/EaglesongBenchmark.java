package io.secio.benchmarks;

import io.secio.ckb.header.Ckbhash;
import io.secio.ckb.header.Eaglesong;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * CKB's PoW hashes on one 48-byte PoW message (PoW hash then nonce): Eaglesong alone (mainnet's rule;
 * two permutations of 43 rounds), into a reused output, and ckbhash (BLAKE2b-256) of a 208-byte
 * header, the other hash each header costs. Hashes per second = ops/s.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class EaglesongBenchmark {
  private final Eaglesong eaglesong = new Eaglesong();
  private final byte[] message = new byte[48];
  private final byte[] header = new byte[208];
  private final byte[] out = new byte[32];

  /** Random message and header bytes, the same every run. */
  @Setup
  public void setUp() {
    Random random = new Random(1);
    random.nextBytes(message);
    random.nextBytes(header);
  }

  /** Eaglesong of the PoW message, into a reused output. */
  @Benchmark
  public byte[] eaglesong() {
    message[47]++;
    eaglesong.hash(message, 0, message.length, out, 0);
    return out;
  }

  /** ckbhash of a header's 208 bytes (its block hash). */
  @Benchmark
  public byte[] ckbhashHeader() {
    header[207]++;
    return Ckbhash.hash(header, 0, header.length);
  }
}
