package io.secio.benchmarks;

import io.secio.crypto.CryptoBackend;
import io.secio.crypto.CryptoBackends;
import io.secio.frame.FrameOpener;
import io.secio.frame.FrameSealer;
import io.secio.frame.cipher.DirectionKeys;
import io.secio.frame.cipher.FrameCiphers;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.HashAlgorithm;
import java.nio.ByteBuffer;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * One secio frame sealed and opened through the core codec ({@link FrameCiphers}) on direct buffers,
 * as secio-netty drives it: the same op as {@link PrimitiveBenchmark}, plus the nonce counter, the
 * MAC check and the frame bookkeeping. {@code backend=auto} is the per-primitive default.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FrameBenchmark {
  @Param({"auto"})
  String backend;

  @Param({"AES_128_GCM", "AES_256_GCM", "CHACHA20_POLY1305", "AES_128_CTR", "AES_256_CTR"})
  CipherAlgorithm cipher;

  @Param({"1024", "16384", "1048576"})
  int size;

  private ByteBuffer plaintext;
  private ByteBuffer body;
  private ByteBuffer opened;
  private FrameSealer sealer;
  private FrameOpener opener;

  @Setup
  public void setUp() throws GeneralSecurityException {
    CryptoBackend b = backend.equals("auto")
        ? CryptoBackends.defaultBackend()
        : CryptoBackends.named(backend).orElseThrow();
    DirectionKeys keys = new DirectionKeys(
        new byte[cipher.ivSizeInBytes()], new byte[cipher.keySizeInBytes()],
        new byte[DirectionKeys.MAC_KEY_SIZE_IN_BYTES]);
    sealer = FrameCiphers.sealer(b, cipher, HashAlgorithm.SHA256, keys);
    opener = FrameCiphers.opener(b, cipher, HashAlgorithm.SHA256, keys);
    plaintext = Buffers.random(size);
    body = ByteBuffer.allocateDirect(size + sealer.overhead());
    opened = ByteBuffer.allocateDirect(size);
  }

  @Benchmark
  public ByteBuffer sealOpen() throws GeneralSecurityException {
    plaintext.clear();
    body.clear();
    opened.clear();
    sealer.seal(plaintext, body);
    opener.open(body.flip(), opened);
    return opened;
  }
}
