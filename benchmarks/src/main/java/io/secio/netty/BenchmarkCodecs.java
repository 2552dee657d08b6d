package io.secio.netty;

import io.netty.channel.ChannelHandler;
import io.secio.frame.CipherPair;

/**
 * The codec and decoder without a handshake, for {@code CodecBenchmark}: their constructors are not
 * API (a user's pipeline gets them from {@link Secio}), so this class sits in their package, in the
 * benchmarks jar, which runs on the class path.
 */
public final class BenchmarkCodecs {
  private BenchmarkCodecs() {}

  /** A frame codec that owns {@code ciphers}. */
  public static ChannelHandler codec(CipherPair ciphers, int maxFrameLength, int maxPlaintextPerFrame) {
    return new SecioFrameCodec(ciphers, maxFrameLength, maxPlaintextPerFrame);
  }

  /** A frame decoder with one limit, as after the handshake. */
  public static ChannelHandler decoder(int maxFrameLength) {
    return new SecioFrameDecoder(maxFrameLength);
  }
}
