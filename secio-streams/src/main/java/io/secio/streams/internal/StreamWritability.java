package io.secio.streams.internal;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;

/**
 * Whether a stream is writable, and why not ({@code docs/STREAMS.md} §3): more than its write buffer
 * high water mark waits in it (until it falls under the low one), its connection is unwritable, or
 * the peer granted it no credit. Each reason is a bit; the stream's pipeline hears {@code
 * channelWritabilityChanged} when the first is set or the last cleared.
 *
 * <p>Thread safety: the bits and the byte count are atomic, since writes handed over from other
 * threads count as they are queued; the event fires on the stream's event loop.
 */
final class StreamWritability {
  private static final AtomicLongFieldUpdater<StreamWritability> PENDING_BYTES =
      AtomicLongFieldUpdater.newUpdater(StreamWritability.class, "pendingBytes");
  private static final AtomicIntegerFieldUpdater<StreamWritability> UNWRITABLE =
      AtomicIntegerFieldUpdater.newUpdater(StreamWritability.class, "unwritable");

  // Why the stream is unwritable: bits of `unwritable`.
  private static final int QUEUE_FULL = 1;
  private static final int CONNECTION_FULL = 2;
  private static final int NO_CREDIT = 4;

  private final AbstractStreamChannel stream;
  private volatile int unwritable;
  private volatile long pendingBytes;

  StreamWritability(AbstractStreamChannel stream, boolean connectionWritable) {
    this.stream = stream;
    this.unwritable = connectionWritable ? 0 : CONNECTION_FULL;
  }

  boolean isWritable() {
    return unwritable == 0;
  }

  long bytesBeforeUnwritable() {
    long bytes = stream.config().getWriteBufferHighWaterMark() - pendingBytes + 1;
    return bytes > 0 && isWritable() ? bytes : 0;
  }

  long bytesBeforeWritable() {
    long bytes = pendingBytes - stream.config().getWriteBufferLowWaterMark() + 1;
    return bytes <= 0 || isWritable() ? 0 : bytes;
  }

  /** {@code delta} more bytes wait in the stream; {@code later}: from another thread's write, heard later. */
  void addPending(long delta, boolean later) {
    if (delta == 0) {
      return;
    }
    long after = PENDING_BYTES.addAndGet(this, delta);
    if (after > stream.config().getWriteBufferHighWaterMark()) {
      set(QUEUE_FULL, later);
    } else if (after < stream.config().getWriteBufferLowWaterMark() || after == 0) {
      clear(QUEUE_FULL, later);
    }
  }

  void connectionWritable(boolean writable) {
    if (writable) {
      clear(CONNECTION_FULL, false);
    } else {
      set(CONNECTION_FULL, false);
    }
  }

  void noCredit(boolean exhausted) {
    if (exhausted) {
      set(NO_CREDIT, false);
    } else {
      clear(NO_CREDIT, false);
    }
  }

  private void set(int bit, boolean later) {
    for (;;) {
      int before = unwritable;
      if ((before & bit) != 0) {
        return;
      }
      if (UNWRITABLE.compareAndSet(this, before, before | bit)) {
        if (before == 0) {
          fireChanged(later);
        }
        return;
      }
    }
  }

  private void clear(int bit, boolean later) {
    for (;;) {
      int before = unwritable;
      if ((before & bit) == 0) {
        return;
      }
      if (UNWRITABLE.compareAndSet(this, before, before & ~bit)) {
        if (before == bit) {
          fireChanged(later);
        }
        return;
      }
    }
  }

  private void fireChanged(boolean later) {
    if (later) {
      stream.eventLoop().execute(stream.pipeline()::fireChannelWritabilityChanged);
    } else {
      stream.pipeline().fireChannelWritabilityChanged();
    }
  }
}
