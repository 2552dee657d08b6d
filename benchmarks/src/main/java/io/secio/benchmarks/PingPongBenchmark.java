package io.secio.benchmarks;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import java.util.concurrent.TimeUnit;
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
 * Round-trip latency over one loopback TCP connection: the client writes {@code size} bytes, the
 * server echoes them, and a round trip ends when all of them are back.
 *
 * <p>{@link #roundTrip} is one round trip per op, started from the benchmark thread, sampled for
 * percentiles; it includes waking the benchmark thread, which on a small machine costs as much as the
 * round trip and varies a lot. {@link #backToBack} runs {@value #ROUNDS} round trips in a row inside
 * the client's event loop (the next message goes out when the last echo is in, as a request/response
 * protocol would) and reports the mean per round trip: the stack's own latency, with one thread
 * wake-up spread over all of them.
 *
 * <p>{@code eventLoops} is 2 by default: client and server on one event loop thread each, as two
 * peers would be, so that each round trip also waits twice for a thread to wake up (on this VM 50 to
 * 150 µs, varying from run to run). With 1 both ends share one thread: no wake-ups, and a round trip
 * is exactly the work of both ends' stacks, one after the other.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PingPongBenchmark {
  @Param({"PLAIN", "TLS13_AES_128_GCM", "TLS13_CHACHA20_POLY1305", "SECIO_AES_128_GCM",
      "SECIO_AES_256_GCM", "SECIO_CHACHA20_POLY1305", "SECIO_AES_128_CTR", "SECIO_AES_256_CTR"})
  Stack stack;

  @Param({"10240"})
  int size;

  @Param({"2"})
  int eventLoops;

  /** Round trips per {@link #backToBack} op. */
  public static final int ROUNDS = 100;

  private Loopback loopback;
  private Channel channel;
  private Loopback.Pinger pinger;
  private ByteBuf message;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    loopback = new Loopback(stack, eventLoops, Loopback.Echo::new);
    message = Unpooled.directBuffer(size).writeBytes(Buffers.random(size));
    pinger = new Loopback.Pinger(message);
    channel = loopback.connectAndCheck(pinger);
  }

  @Benchmark
  public void roundTrip() throws InterruptedException {
    pinger.run(channel, 1);
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OperationsPerInvocation(ROUNDS)
  public void backToBack() throws InterruptedException {
    pinger.run(channel, ROUNDS);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    channel.close().syncUninterruptibly();
    loopback.close();
    message.release();
  }
}
