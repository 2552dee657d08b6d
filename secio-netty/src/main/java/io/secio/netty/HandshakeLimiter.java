package io.secio.netty;

import io.secio.SecioConfig;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bounds how many secio handshakes run at once on the inbound channels that share it (spec section
 * 8: each inbound handshake costs a signature and an ECDH before the peer is known). A {@link
 * SecioHandshakeHandler} takes a permit when its handshake starts and gives it back exactly once when
 * the handshake completes, fails or the handler is removed; a channel that finds no permit left is
 * failed with {@link io.secio.SecioException.Reason#TOO_MANY_HANDSHAKES} and closed at once.
 *
 * <p>Thread-safe: one limiter serves every child channel of a listener, on any event loop.
 */
public final class HandshakeLimiter {
  // Weak keys: a config that is no longer used by anyone takes its limiter with it.
  private static final Map<SecioConfig, HandshakeLimiter> BY_CONFIG = new WeakHashMap<>();

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

  /**
   * The limiter shared by every server channel that uses {@code config}, bounded by {@link
   * SecioConfig#maxConcurrentHandshakes()}. Returning the same instance for the same config is what
   * keeps the bound effective when a handler is built per child channel.
   */
  public static HandshakeLimiter forConfig(SecioConfig config) {
    synchronized (BY_CONFIG) {
      return BY_CONFIG.computeIfAbsent(config, c -> of(c.maxConcurrentHandshakes()));
    }
  }

  /** The bound. */
  public int maxConcurrentHandshakes() {
    return maxConcurrentHandshakes;
  }

  /** How many handshakes hold a permit now. */
  public int active() {
    return active.get();
  }

  /** Takes a permit if one is free. */
  boolean tryAcquire() {
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

  /** Gives back a permit taken with {@link #tryAcquire()}. */
  void release() {
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
