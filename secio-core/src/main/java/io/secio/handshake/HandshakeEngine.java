package io.secio.handshake;

import io.secio.SecioConfig;
import io.secio.SecioException;
import io.secio.SecioSession;
import java.util.List;

/**
 * The secio handshake as an I/O-free state machine (spec sections 3, 4, 5 and 7). The caller moves
 * bytes: it sends what {@link #start()} returns, then feeds every whole received frame payload (without
 * its 4-byte length prefix) to {@link #receive(byte[])} and sends what that returns, in order. Both
 * sides start at once; neither waits for the other's Propose before sending its own.
 *
 * <p>When {@link #isComplete()} turns true the {@link #session()} holds the negotiated outcome and a
 * frame sealer and opener for the local side. Frames that arrive after the peer's nonce echo are
 * application frames and go to {@code session().opener()}.
 *
 * <p>Any failure moves the engine to a failed state, wipes its secrets and throws a {@link
 * SecioException}; every later call throws too. The engine never blocks, never calls back, and is not
 * thread-safe. STUB: to be replaced by the real implementation.
 */
public final class HandshakeEngine {

  /** Where the handshake is. */
  public enum State {
    NEW,
    AWAITING_PROPOSE,
    AWAITING_EXCHANGE,
    AWAITING_NONCE_ECHO,
    COMPLETE,
    FAILED
  }

  private HandshakeEngine(SecioConfig config) {}

  /** A new engine for one connection. */
  public static HandshakeEngine create(SecioConfig config) {
    return new HandshakeEngine(config);
  }

  /** Returns the frames to send first: our Propose. Call once. */
  public List<byte[]> start() {
    throw new UnsupportedOperationException("not yet");
  }

  /** Feeds one whole received frame payload; returns the frames to send now, in order. */
  public List<byte[]> receive(byte[] framePayload) throws SecioException {
    throw new UnsupportedOperationException("not yet");
  }

  public State state() {
    throw new UnsupportedOperationException("not yet");
  }

  public boolean isComplete() {
    return state() == State.COMPLETE;
  }

  /** The session; only once complete. @throws IllegalStateException before that */
  public SecioSession session() {
    throw new UnsupportedOperationException("not yet");
  }

  /**
   * Fails the handshake from outside (timeout, close): wipes secrets and moves to {@link State#FAILED}.
   * Returns the exception to report. Does nothing more if already complete or failed.
   */
  public SecioException fail(SecioException cause) {
    throw new UnsupportedOperationException("not yet");
  }
}
