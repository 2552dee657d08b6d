package io.secio.netty;

import io.netty.util.internal.PlatformDependent;
import io.secio.frame.FrameSealer;
import io.secio.protocol.SecioException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A sealer that seals with another and tells a codec test what it was handed: where each frame's
 * input and output start in memory, and how often it was destroyed. It can be told to leave the last
 * {@code shortBy} bytes of each frame unwritten, or to throw from {@code destroy()} (after counting).
 */
final class SpySealer implements FrameSealer {
  private final FrameSealer delegate;
  /** Per sealed frame: the addresses of input and output, -1 for heap memory. */
  final List<long[]> inAndOut = new ArrayList<>();
  int shortBy;
  boolean destroyFails;
  int destroyed;

  SpySealer(FrameSealer delegate) {
    this.delegate = delegate;
  }

  static long address(ByteBuffer buffer) {
    return buffer.isDirect() ? PlatformDependent.directBufferAddress(buffer) + buffer.position() : -1;
  }

  @Override
  public int overhead() {
    return delegate.overhead();
  }

  @Override
  public void seal(ByteBuffer plaintext, ByteBuffer out) throws SecioException {
    inAndOut.add(new long[] {address(plaintext), address(out)});
    ByteBuffer whole = ByteBuffer.allocate(out.remaining());
    delegate.seal(plaintext, whole);
    out.put(whole.flip().limit(whole.limit() - shortBy));
  }

  @Override
  public void destroy() {
    destroyed++;
    if (destroyFails) {
      throw new IllegalStateException("provider failed to re-key");
    }
  }
}
