package io.secio.benchmarks;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.secio.identity.KeyType;
import io.secio.protocol.ExchangeAlgorithm;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
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
 * One-way throughput over one loopback TCP connection: the client writes and flushes messages of
 * {@code size} bytes, each on its own, the server reads and discards them and acknowledges each op's bytes with one
 * byte. One op is {@link #messagesPerOp} messages (about 1 MiB, at least one message), so bytes per
 * second = ops/s x size x messagesPerOp(size).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class StreamBenchmark {
  @Param({"PLAIN", "TLS13_AES_128_GCM", "TLS13_CHACHA20_POLY1305", "SECIO_AES_128_GCM",
      "SECIO_AES_256_GCM", "SECIO_CHACHA20_POLY1305", "SECIO_AES_128_CTR", "SECIO_AES_256_CTR"})
  Stack stack;

  @Param({"10240", "10485760"})
  int size;

  /** secio's largest plaintext per frame (the default is 64 KiB); other stacks ignore it. */
  @Param({"65536"})
  int frame;

  private Loopback loopback;
  private Channel channel;
  private Loopback.Receiver acks;
  private ByteBuf message;
  private int messages;
  private final Runnable sendMessages = () -> {
    for (int i = 0; i < messages; i++) {
      channel.writeAndFlush(message.retainedDuplicate());
    }
  };

  /** Messages per op: about 1 MiB of them, at least one. */
  public static int messagesPerOp(int size) {
    return Math.max(1, (1 << 20) / size);
  }

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    messages = messagesPerOp(size);
    long bytesPerOp = (long) size * messages;
    loopback = new Loopback(stack, KeyType.ED25519, ExchangeAlgorithm.P_256, frame,
        () -> new Loopback.Sink(bytesPerOp));
    acks = new Loopback.Receiver(1);
    channel = loopback.connectAndCheck(acks);
    message = Unpooled.directBuffer(size).writeBytes(Buffers.random(size));
  }

  /**
   * The event loops' CPU time per op, a secondary result beside throughput: unlike the wall clock
   * on a small shared machine, it barely moves from run to run.
   */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Cpu {
    public long eventLoopCpuMicros;
    public long ops;

    @Setup(Level.Iteration)
    public void reset() {
      eventLoopCpuMicros = 0;
      ops = 0;
    }
  }

  @Benchmark
  public void send(Cpu cpu) throws InterruptedException {
    long before = loopback.eventLoopCpuNanos();
    // The writes run on the channel's event loop, as an application's would: one task, not one
    // cross-thread wake-up per message.
    channel.eventLoop().execute(sendMessages);
    acks.await(1);
    cpu.eventLoopCpuMicros += (loopback.eventLoopCpuNanos() - before) / 1000;
    cpu.ops++;
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    channel.close().syncUninterruptibly();
    loopback.close();
    message.release();
  }
}
