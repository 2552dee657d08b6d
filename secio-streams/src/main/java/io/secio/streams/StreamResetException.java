package io.secio.streams;

import java.io.IOException;

/**
 * The peer reset a stream ({@code docs/STREAMS.md} §2): fired into that stream's pipeline as {@code
 * exceptionCaught} just before it closes, and the failure of writes it cut short. Also the failure
 * of an open the peer refused (a yamux RST in answer to our SYN).
 *
 * <p>Immutable; carries no stack trace (it marks a peer's decision, not a bug here).
 */
public final class StreamResetException extends IOException {
  private static final long serialVersionUID = 1L;

  private final long streamId;

  /**
   * A reset of stream {@code streamId}.
   *
   * @param streamId the stream's id on the wire
   */
  public StreamResetException(long streamId) {
    super("stream " + streamId + " reset by the peer", null);
    this.streamId = streamId;
  }

  /** The id of the stream the peer reset. */
  public long streamId() {
    return streamId;
  }

  @Override
  public synchronized Throwable fillInStackTrace() {
    return this;
  }
}
