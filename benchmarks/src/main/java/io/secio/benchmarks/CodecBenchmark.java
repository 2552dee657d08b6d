package io.secio.benchmarks;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.secio.SecioConfig;
import io.secio.crypto.CryptoBackend;
import io.secio.crypto.CryptoBackends;
import io.secio.frame.CipherPair;
import io.secio.frame.cipher.DirectionKeys;
import io.secio.frame.cipher.FrameCiphers;
import io.secio.netty.BenchmarkCodecs;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.HashAlgorithm;
import java.security.GeneralSecurityException;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The secio-netty codec without sockets: {@code pattern} is {@code WRITESxSIZE}, that many writes of
 * that many bytes, then one flush; the frames are fed to the receiving decoder and codec and the
 * plaintext drained. This isolates flush coalescing, the frame size ({@code frame}, the codec's largest
 * plaintext per frame) and how heap or direct application buffers are sealed. Bytes per second = ops/s
 * x WRITES x SIZE.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CodecBenchmark {
  private static final int MAX_FRAME_LENGTH = SecioConfig.DEFAULT_MAX_FRAME_LENGTH_IN_BYTES;

  @Param({"AES_128_GCM"})
  CipherAlgorithm cipher;

  @Param({"64x1024", "1x1048576"})
  String pattern;

  @Param({"direct", "heap"})
  String buffer;

  @Param({"65536"})
  int frame;

  private int writes;
  private EmbeddedChannel sender;
  private EmbeddedChannel receiver;
  private ByteBuf message;

  @Setup
  public void setUp() throws GeneralSecurityException {
    writes = Integer.parseInt(pattern.split("x")[0]);
    int size = Integer.parseInt(pattern.split("x")[1]);
    DirectionKeys keys = new DirectionKeys(new byte[cipher.ivSizeInBytes()],
        new byte[cipher.keySizeInBytes()], new byte[DirectionKeys.MAC_KEY_SIZE_IN_BYTES]);
    sender = new EmbeddedChannel(BenchmarkCodecs.codec(ciphers(keys), MAX_FRAME_LENGTH, frame));
    receiver = new EmbeddedChannel(BenchmarkCodecs.decoder(MAX_FRAME_LENGTH),
        BenchmarkCodecs.codec(ciphers(keys), MAX_FRAME_LENGTH, frame));
    byte[] bytes = new byte[size];
    Buffers.random(size).get(bytes);
    message = buffer.equals("heap") ? Unpooled.wrappedBuffer(bytes)
        : Unpooled.directBuffer(size).writeBytes(bytes);
  }

  /** Ciphers whose sealer and opener both use {@code keys}, so one pair's frames open in another's. */
  private CipherPair ciphers(DirectionKeys keys) throws GeneralSecurityException {
    CryptoBackend backend = CryptoBackends.defaultBackend();
    return new CipherPair(FrameCiphers.sealer(backend, cipher, HashAlgorithm.SHA256, keys),
        FrameCiphers.opener(backend, cipher, HashAlgorithm.SHA256, keys));
  }

  @Benchmark
  public int writeFlushRead() {
    for (int i = 0; i < writes; i++) {
      sender.write(message.retainedDuplicate());
    }
    sender.flush();
    for (ByteBuf f = sender.readOutbound(); f != null; f = sender.readOutbound()) {
      receiver.writeInbound(f);
    }
    int received = 0;
    for (ByteBuf p = receiver.readInbound(); p != null; p = receiver.readInbound()) {
      received += p.readableBytes();
      p.release();
    }
    return received;
  }

  @TearDown
  public void tearDown() {
    sender.finishAndReleaseAll();
    receiver.finishAndReleaseAll();
    message.release();
  }
}
