package io.secio.streams;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A memory budget the connections of a node share ({@code docs/STREAMS.md} §3): how much of the
 * peers' data all their streams together may hold, and the streams of one source, where each
 * connection alone is bounded by its muxer's config (yamux's session window, mplex's session
 * buffer) but nothing bounds their sum. Give one budget to the muxer config of a listener ({@code
 * YamuxConfig.Builder.budget}, {@code MplexConfig.Builder.budget}) and every connection made with
 * that config draws on it:
 *
 * <pre>{@code
 * MemoryBudget budget = MemoryBudget.of(256L * 1024 * 1024); // 256 MiB for all, 32 MiB per source
 * YamuxConfig yamux = YamuxConfig.tentacle().toBuilder().budget(budget).build();
 * }</pre>
 *
 * <p>yamux counts the credit its streams hold (what the peer may send, and what it sent that is not
 * read yet): a stream opens only while its 256 KiB share fits, and a stream's window grows past its
 * share only out of what the budget has free; the share itself always comes back, so every stream
 * keeps moving. mplex, which grants no credit, counts what its streams hold unread: a message that
 * would pass the budget resets the stream it is for, and new streams are refused while the budget is
 * spent. Either way the peer's data never takes more than the budget, give or take one stream's share
 * or one message for each event loop checking it at the same moment.
 *
 * <p>A source is the remote IP address, and for IPv6 its /64 network; connections without an IP
 * address (in-process channels) share one source.
 *
 * <p>Thread-safe: the connections of every event loop draw on it; an {@link Account} is one
 * connection's and is used on that connection's event loop.
 */
public final class MemoryBudget {
  /** The default share of one source, as a fraction of the whole budget: one eighth. */
  public static final int DEFAULT_SOURCES_TO_FILL = 8;

  private static final Object NO_ADDRESS = new Object();

  private final long maxBytes;
  private final long maxBytesPerSource;
  private final AtomicLong used = new AtomicLong();
  private final ConcurrentHashMap<Object, Long> perSource = new ConcurrentHashMap<>();

  private MemoryBudget(long maxBytes, long maxBytesPerSource) {
    if (maxBytes < 1) {
      throw new IllegalArgumentException("maxBytes must be positive: " + maxBytes);
    }
    if (maxBytesPerSource < 1 || maxBytesPerSource > maxBytes) {
      throw new IllegalArgumentException("maxBytesPerSource must be between 1 and " + maxBytes + ": "
          + maxBytesPerSource);
    }
    this.maxBytes = maxBytes;
    this.maxBytesPerSource = maxBytesPerSource;
  }

  /**
   * A budget of {@code maxBytes} for all connections, one {@value #DEFAULT_SOURCES_TO_FILL}th of it
   * for the connections of one source.
   *
   * @param maxBytes what all streams of all connections may hold
   * @return a new budget, shared by nothing yet
   */
  public static MemoryBudget of(long maxBytes) {
    return new MemoryBudget(maxBytes, Math.max(1, maxBytes / DEFAULT_SOURCES_TO_FILL));
  }

  /**
   * A budget of {@code maxBytes} for all connections, {@code maxBytesPerSource} for those of one
   * source.
   *
   * @param maxBytes what all streams of all connections may hold
   * @param maxBytesPerSource what the streams of one source's connections may hold, at most {@code maxBytes}
   * @return a new budget, shared by nothing yet
   */
  public static MemoryBudget of(long maxBytes, long maxBytesPerSource) {
    return new MemoryBudget(maxBytes, maxBytesPerSource);
  }

  /** What all connections may hold, in bytes. */
  public long maxBytes() {
    return maxBytes;
  }

  /** What the connections of one source may hold, in bytes. */
  public long maxBytesPerSource() {
    return maxBytesPerSource;
  }

  /** What the connections hold now, in bytes. */
  public long used() {
    return used.get();
  }

  /**
   * A connection's account: what it holds is drawn from this budget and from its source's share.
   * A muxer opens one per connection; an application needs this only for a muxer of its own.
   *
   * @param remote the connection's remote address, or {@code null}
   * @return a new account, holding nothing
   */
  public Account account(SocketAddress remote) {
    return new Account(sourceOf(remote));
  }

  private long available(Object source) {
    return Math.min(maxBytes - used.get(), maxBytesPerSource - perSource.getOrDefault(source, 0L));
  }

  private void take(Object source, long bytes) {
    perSource.merge(source, bytes, Long::sum);
    used.addAndGet(bytes);
  }

  private void give(Object source, long bytes) {
    perSource.computeIfPresent(source, (key, held) -> held <= bytes ? null : held - bytes);
    used.addAndGet(-bytes);
  }

  private static Object sourceOf(SocketAddress remote) {
    if (!(remote instanceof InetSocketAddress inet) || inet.getAddress() == null) {
      return NO_ADDRESS;
    }
    InetAddress address = inet.getAddress();
    if (!(address instanceof Inet6Address)) {
      return address;
    }
    try {
      // Its /64 network: one host easily holds a whole one.
      return InetAddress.getByAddress(Arrays.copyOf(Arrays.copyOf(address.getAddress(), 8), 16));
    } catch (UnknownHostException e) {
      throw new IllegalStateException("16 bytes are an IPv6 address", e);
    }
  }

  @Override
  public String toString() {
    return "MemoryBudget{used=" + used.get() + ", max=" + maxBytes + ", maxPerSource=" + maxBytesPerSource
        + ", sources=" + perSource.size() + "}";
  }

  /**
   * One connection's share of the budget: what it holds, taken from the budget and its source's share
   * and given back as its streams read or close, and all at once when the connection ends.
   *
   * <p>Not thread-safe: the connection's event loop.
   */
  public final class Account {
    private final Object source;
    private long held;
    private boolean closed;

    private Account(Object source) {
      this.source = source;
    }

    /** What this connection may still take: the least of what the budget and its source's share have free. */
    public long available() {
      return closed ? 0 : Math.max(0, MemoryBudget.this.available(source));
    }

    /**
     * Takes {@code bytes}, which the caller checked against {@link #available()}: a connection on
     * another event loop may have taken some meanwhile, so the budget may be passed by what such
     * checks let through at the same moment. Nothing is taken once the account is closed.
     *
     * @param bytes not negative
     */
    public void take(long bytes) {
      if (!closed && bytes > 0) {
        held += bytes;
        MemoryBudget.this.take(source, bytes);
      }
    }

    /**
     * Gives back {@code bytes} of what this connection holds (no more than it holds).
     *
     * @param bytes not negative
     */
    public void give(long bytes) {
      long back = Math.min(bytes, held);
      if (back > 0) {
        held -= back;
        MemoryBudget.this.give(source, back);
      }
    }

    /** What this connection holds. */
    public long held() {
      return held;
    }

    /** The connection ended: everything it holds goes back, and it takes nothing more. */
    public void close() {
      give(held);
      closed = true;
    }
  }
}
