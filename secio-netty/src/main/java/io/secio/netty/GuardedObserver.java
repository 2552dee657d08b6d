package io.secio.netty;

import io.secio.SecioObserver;
import io.secio.SecioSession;
import io.secio.protocol.SecioException;
import java.time.Duration;

/**
 * A user's {@link SecioObserver} behind a guard: an observer that throws must not break a handshake
 * or a frame, so its exceptions are dropped here. {@link SecioObserver#NONE} is not wrapped at all.
 */
final class GuardedObserver implements SecioObserver {
  private final SecioObserver observer;

  private GuardedObserver(SecioObserver observer) {
    this.observer = observer;
  }

  static SecioObserver of(SecioObserver observer) {
    return observer == SecioObserver.NONE || observer instanceof GuardedObserver
        ? observer : new GuardedObserver(observer);
  }

  @Override
  public void handshakeSucceeded(SecioSession session, Duration duration) {
    try {
      observer.handshakeSucceeded(session, duration);
    } catch (RuntimeException e) {
      // Dropped: see the class comment.
    }
  }

  @Override
  public void handshakeFailed(SecioException.Reason reason, Duration duration) {
    try {
      observer.handshakeFailed(reason, duration);
    } catch (RuntimeException e) {
      // Dropped: see the class comment.
    }
  }

  @Override
  public void frameSealed(int plaintextBytes) {
    try {
      observer.frameSealed(plaintextBytes);
    } catch (RuntimeException e) {
      // Dropped: see the class comment.
    }
  }

  @Override
  public void frameOpened(int plaintextBytes) {
    try {
      observer.frameOpened(plaintextBytes);
    } catch (RuntimeException e) {
      // Dropped: see the class comment.
    }
  }
}
