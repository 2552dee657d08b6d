package io.secio.netty;

/** The frame decoder for tests outside this package: its constructors are not API. */
public final class FrameDecoders {
  private FrameDecoders() {}

  /** A decoder that accepts payloads of up to {@code maxFrameLength} bytes, as after a handshake. */
  public static SecioFrameDecoder of(int maxFrameLength) {
    return new SecioFrameDecoder(maxFrameLength);
  }
}
