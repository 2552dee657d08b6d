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
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Round-trip latency over one loopback TCP connection: the client writes {@code size} bytes, the
 * server echoes them, and the op ends when all of them are back.
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

  private Loopback loopback;
  private Channel channel;
  private Loopback.Receiver echoes;
  private ByteBuf message;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    loopback = new Loopback(stack, Loopback.Echo::new);
    echoes = new Loopback.Receiver(size);
    channel = loopback.connectAndCheck(echoes);
    message = Unpooled.directBuffer(size).writeBytes(Buffers.random(size));
  }

  @Benchmark
  public void roundTrip() throws InterruptedException {
    channel.writeAndFlush(message.retainedDuplicate());
    echoes.await(1);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    channel.close().syncUninterruptibly();
    loopback.close();
    message.release();
  }
}
