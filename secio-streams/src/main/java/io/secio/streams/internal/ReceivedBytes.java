package io.secio.streams.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.ArrayDeque;

/**
 * Bytes a stream received that its pipeline has not asked for yet ({@code docs/STREAMS.md} §3),
 * allocated only when a stream first has to hold some.
 *
 * <p>A chunk arrives as a slice of the connection's read buffer. Held as is, a small slice would pin
 * the whole buffer, so a window of 1-byte frames could pin a thousand times the window; a chunk that
 * uses less than half of the buffer it pins is copied instead, into the tail copy when that has room.
 * So what a stream holds stays within about twice what it was granted. Not thread-safe: the event
 * loop's.
 */
final class ReceivedBytes {
  /** The largest copy buffer; merging into it stops there, so one small chunk never grows it further. */
  private static final int MAX_COPY = 64 * 1024;

  private final ArrayDeque<ByteBuf> chunks = new ArrayDeque<>(4);
  private int bytes;
  /** Whether the last chunk is a copy of ours that later small chunks may be merged into. */
  private boolean tailIsCopy;

  void add(ByteBuf chunk, ByteBufAllocator alloc) {
    int n = chunk.readableBytes();
    bytes += n;
    ByteBuf tail = chunks.peekLast();
    if (tailIsCopy && tail.maxWritableBytes() >= n && pinsMost(chunk)) {
      tail.writeBytes(chunk);
      chunk.release();
    } else if (pinsMost(chunk)) {
      ByteBuf copy = alloc.buffer(n, Math.max(n, MAX_COPY));
      copy.writeBytes(chunk);
      chunk.release();
      chunks.add(copy);
      tailIsCopy = true;
    } else {
      chunks.add(chunk);
      tailIsCopy = false;
    }
  }

  /** Whether {@code chunk} is under half of the buffer it keeps alive. */
  private static boolean pinsMost(ByteBuf chunk) {
    ByteBuf underlying = chunk.unwrap();
    int capacity = underlying != null ? underlying.capacity() : chunk.capacity();
    return (long) chunk.readableBytes() * 2 < capacity;
  }

  /** The oldest chunk, or {@code null}; the caller owns it. */
  ByteBuf poll() {
    ByteBuf chunk = chunks.poll();
    if (chunk != null) {
      bytes -= chunk.readableBytes();
      if (chunks.isEmpty()) {
        tailIsCopy = false;
      }
    }
    return chunk;
  }

  boolean isEmpty() {
    return chunks.isEmpty();
  }

  int size() {
    return chunks.size();
  }

  int bytes() {
    return bytes;
  }

  /** Releases everything held; returns how many bytes that was. */
  int releaseAll() {
    int released = bytes;
    for (ByteBuf chunk; (chunk = chunks.poll()) != null; ) {
      chunk.release();
    }
    bytes = 0;
    tailIsCopy = false;
    return released;
  }
}
