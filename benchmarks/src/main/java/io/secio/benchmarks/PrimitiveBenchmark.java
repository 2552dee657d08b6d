package io.secio.benchmarks;

import io.secio.crypto.CryptoBackend;
import io.secio.crypto.CryptoBackends;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.HashAlgorithm;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.Mac;
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
 * Raw primitives per backend, on direct buffers: one op seals {@code size} bytes and opens them again,
 * so it compares one to one with {@link FrameBenchmark}. AEADs come straight from the provider
 * ({@link RawAead}); CTR+HMAC-SHA256 is the backend's own {@link Cipher} and {@link Mac}, which are
 * plain JCA objects. Bytes per second = ops/s x size.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PrimitiveBenchmark {
  @Param({"conscrypt", "jdk", "bouncycastle"})
  String backend;

  @Param({"AES_128_GCM", "AES_256_GCM", "CHACHA20_POLY1305", "AES_128_CTR", "AES_256_CTR"})
  CipherAlgorithm cipher;

  @Param({"1024", "16384", "1048576"})
  int size;

  private ByteBuffer plaintext;
  private ByteBuffer sealed;
  private ByteBuffer opened;
  private RawAead aead;
  private Cipher ctrOut;
  private Cipher ctrIn;
  private Mac macOut;
  private Mac macIn;
  private final byte[] tag = new byte[32];
  private final byte[] expectedTag = new byte[32];

  @Setup
  public void setUp() throws GeneralSecurityException {
    plaintext = Buffers.random(size);
    sealed = ByteBuffer.allocateDirect(size + 32);
    opened = ByteBuffer.allocateDirect(size);
    if (cipher.isAead()) {
      aead = new RawAead(backend, cipher);
      return;
    }
    CryptoBackend b = CryptoBackends.named(backend).orElseThrow();
    byte[] key = new byte[cipher.keySizeInBytes()];
    byte[] iv = new byte[16];
    byte[] macKey = new byte[20];
    ctrOut = b.newCtr(cipher, key, iv);
    ctrIn = b.newCtr(cipher, key, iv);
    macOut = b.newHmac(HashAlgorithm.SHA256, macKey);
    macIn = b.newHmac(HashAlgorithm.SHA256, macKey);
  }

  @Benchmark
  public ByteBuffer sealOpen() throws GeneralSecurityException {
    plaintext.clear();
    sealed.clear();
    opened.clear();
    if (aead != null) {
      aead.sealOpen(plaintext, sealed, opened);
      return opened;
    }
    // Seal: encrypt, then MAC the ciphertext. Open: MAC the ciphertext, then decrypt it.
    ctrOut.update(plaintext, sealed);
    sealed.flip();
    macOut.update(sealed.duplicate());
    macOut.doFinal(tag, 0);
    macIn.update(sealed.duplicate());
    macIn.doFinal(expectedTag, 0);
    ctrIn.update(sealed, opened);
    return opened;
  }
}
