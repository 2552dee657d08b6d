package io.secio;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bounds how many secio handshakes run at once on the inbound connections that share it: each inbound
 * handshake costs a signature and an ECDH before the peer is known. A handshake takes a permit when it
 * starts and gives it back exactly once when it completes, fails or is abandoned; a connection that
 * finds no permit left is failed with {@link SecioException.Reason#TOO_MANY_HANDSHAKES} and closed at
 * once.
 *
 * <p>Every {@link SecioConfig} owns one (see {@link SecioConfig#handshakeLimiter()}), so every server
 * handler built from the same config shares its bound; {@link
 * SecioConfig.Builder#handshakeLimiter(HandshakeLimiter)} shares one limiter between configs.
 *
 * <p>Thread-safe: one limiter serves every connection of a listener, on any thread.
 */
public final class HandshakeLimiter {
  private final int maxConcurrentHandshakes;
  private final AtomicInteger active = new AtomicInteger();

  private HandshakeLimiter(int maxConcurrentHandshakes) {
    if (maxConcurrentHandshakes < 1) {
      throw new IllegalArgumentException(
          "maxConcurrentHandshakes must be positive: " + maxConcurrentHandshakes);
    }
    this.maxConcurrentHandshakes = maxConcurrentHandshakes;
  }

  /** A new limiter, independent of every other, allowing {@code maxConcurrentHandshakes} at once. */
  public static HandshakeLimiter of(int maxConcurrentHandshakes) {
    return new HandshakeLimiter(maxConcurrentHandshakes);
  }

  /** The bound. */
  public int maxConcurrentHandshakes() {
    return maxConcurrentHandshakes;
  }

  /** How many handshakes hold a permit now. */
  public int active() {
    return active.get();
  }

  /**
   * Takes a permit if one is free. A caller that gets {@code true} must call {@link #release()}
   * exactly once.
   */
  public boolean tryAcquire() {
    for (;;) {
      int current = active.get();
      if (current >= maxConcurrentHandshakes) {
        return false;
      }
      if (active.compareAndSet(current, current + 1)) {
        return true;
      }
    }
  }

  /**
   * Gives back a permit taken with {@link #tryAcquire()}.
   *
   * @throws IllegalStateException if no permit is held
   */
  public void release() {
    if (active.decrementAndGet() < 0) {
      active.incrementAndGet();
      throw new IllegalStateException("released more permits than acquired");
    }
  }

  @Override
  public String toString() {
    return "HandshakeLimiter{active=" + active.get() + ", max=" + maxConcurrentHandshakes + "}";
  }
}
