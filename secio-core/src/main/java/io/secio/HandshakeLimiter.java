package io.secio;

import io.secio.protocol.SecioException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bounds how many secio handshakes run at once on the inbound connections that share it, in all and
 * per source: each inbound handshake costs a signature and an ECDH before the peer is known, and
 * without a share per source one address could hold every permit with silent connections and lock
 * everyone else out. A handshake takes a permit when it starts and gives it back exactly once when it
 * completes, fails or is abandoned (and, with a handshake executor, only once its delegated work has
 * returned); a connection that finds no permit left is failed with {@link
 * SecioException.Reason#TOO_MANY_HANDSHAKES} and closed at once.
 *
 * <p>A source is the remote IP address, and for IPv6 its /64 network (one host easily holds a whole
 * /64); connections without an IP address (in-process channels) share one source.
 *
 * <p>Every {@link SecioConfig} owns one (see {@link SecioConfig#handshakeLimiter()}), so every server
 * handler built from the same config shares its bounds; {@link
 * SecioConfig.Builder#handshakeLimiter(HandshakeLimiter)} shares one limiter between configs. A
 * transport of a user's own takes a permit with {@link #tryAcquire(SocketAddress)} and gives it
 * back with {@link Permit#release()}.
 *
 * <p>Thread-safe: one limiter serves every connection of a listener, on any thread.
 */
public final class HandshakeLimiter {
  /** The default share of one source, as a fraction of the whole bound: one eighth. */
  public static final int DEFAULT_SOURCES_TO_FILL = 8;

  private static final Object NO_ADDRESS = new Object();

  private final int maxConcurrentHandshakes;
  private final int maxPerSource;
  private final AtomicInteger active = new AtomicInteger();
  private final ConcurrentHashMap<Object, Integer> perSource = new ConcurrentHashMap<>();

  private HandshakeLimiter(int maxConcurrentHandshakes, int maxPerSource) {
    if (maxConcurrentHandshakes < 1) {
      throw new IllegalArgumentException(
          "maxConcurrentHandshakes must be positive: " + maxConcurrentHandshakes);
    }
    if (maxPerSource < 1 || maxPerSource > maxConcurrentHandshakes) {
      throw new IllegalArgumentException("maxPerSource must be between 1 and "
          + maxConcurrentHandshakes + ": " + maxPerSource);
    }
    this.maxConcurrentHandshakes = maxConcurrentHandshakes;
    this.maxPerSource = maxPerSource;
  }

  /**
   * A new limiter, independent of every other, allowing {@code maxConcurrentHandshakes} at once and
   * {@link #defaultMaxPerSource} of them from one source.
   */
  public static HandshakeLimiter of(int maxConcurrentHandshakes) {
    return new HandshakeLimiter(maxConcurrentHandshakes, defaultMaxPerSource(maxConcurrentHandshakes));
  }

  /** A new limiter allowing {@code maxConcurrentHandshakes} at once, {@code maxPerSource} from one source. */
  public static HandshakeLimiter of(int maxConcurrentHandshakes, int maxPerSource) {
    return new HandshakeLimiter(maxConcurrentHandshakes, maxPerSource);
  }

  /** One {@value #DEFAULT_SOURCES_TO_FILL}th of the whole bound, at least 1: 64 of the default 512. */
  public static int defaultMaxPerSource(int maxConcurrentHandshakes) {
    return Math.max(1, maxConcurrentHandshakes / DEFAULT_SOURCES_TO_FILL);
  }

  /** The bound on handshakes at once. */
  public int maxConcurrentHandshakes() {
    return maxConcurrentHandshakes;
  }

  /** The bound on handshakes at once from one source. */
  public int maxPerSource() {
    return maxPerSource;
  }

  /** How many handshakes hold a permit now. */
  public int active() {
    return active.get();
  }

  /**
   * Takes a permit for a handshake with the peer at {@code remote} ({@code null}: no address) if the
   * whole bound and that source's share both have room; {@code null} if not. The caller releases
   * the permit exactly once.
   */
  public Permit tryAcquire(SocketAddress remote) {
    Object source = sourceOf(remote);
    boolean[] taken = {false};
    perSource.compute(source, (key, held) -> {
      int count = held == null ? 0 : held;
      if (count >= maxPerSource || !takeOne()) {
        return held;
      }
      taken[0] = true;
      return count + 1;
    });
    return taken[0] ? new Permit(source) : null;
  }

  private boolean takeOne() {
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

  private void release(Object source) {
    perSource.computeIfPresent(source, (key, held) -> held <= 1 ? null : held - 1);
    active.decrementAndGet();
  }

  /** The key one source's permits are counted under. */
  static Object sourceOf(SocketAddress remote) {
    if (!(remote instanceof InetSocketAddress inet) || inet.getAddress() == null) {
      return NO_ADDRESS;
    }
    InetAddress address = inet.getAddress();
    if (address instanceof Inet6Address) {
      return new Network64(Arrays.copyOf(address.getAddress(), 8));
    }
    return address;
  }

  /** An IPv6 /64 network, by its first eight bytes. */
  private record Network64(byte[] prefix) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Network64 n && Arrays.equals(prefix, n.prefix);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(prefix);
    }
  }

  @Override
  public String toString() {
    return "HandshakeLimiter{active=" + active.get() + ", max=" + maxConcurrentHandshakes
        + ", maxPerSource=" + maxPerSource + "}";
  }

  /** One handshake's permit. Thread-safe; {@link #release()} acts once. */
  public final class Permit {
    private final Object source;
    private final AtomicInteger held = new AtomicInteger(1);

    private Permit(Object source) {
      this.source = Objects.requireNonNull(source);
    }

    /** Gives the permit back; later calls do nothing. */
    public void release() {
      if (held.getAndSet(0) == 1) {
        HandshakeLimiter.this.release(source);
      }
    }
  }
}
