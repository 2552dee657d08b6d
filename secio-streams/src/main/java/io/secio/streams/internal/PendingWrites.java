package io.secio.streams.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelPromise;
import java.util.ArrayDeque;

/**
 * What a stream's pipeline wrote that has not gone to the connection yet, in order ({@code
 * docs/STREAMS.md} §3): buffers and, after {@code shutdownOutput()}, the end-of-stream mark, each
 * with its promise, and how many of them a flush released. Allocated only when a stream first
 * writes. Not thread-safe: the event loop's.
 */
final class PendingWrites {
  /** The end-of-stream mark; its promise follows it like a buffer's. */
  static final Object END = new Object();

  /** Entries as pairs: a {@code ByteBuf} or {@link #END}, then its promise. */
  private final ArrayDeque<Object> entries = new ArrayDeque<>(8);
  private int flushed;
  private long bytes;

  void add(Object msg, ChannelPromise promise) {
    entries.add(msg);
    entries.add(promise);
    if (msg instanceof ByteBuf) {
      bytes += ((ByteBuf) msg).readableBytes();
    }
  }

  /** Releases every entry written so far to be sent. */
  void flush() {
    flushed = entries.size() / 2;
  }

  /** The first flushed entry (a {@code ByteBuf} or {@link #END}), or {@code null}. */
  Object peekFlushed() {
    return flushed > 0 ? entries.peekFirst() : null;
  }

  /** Removes the first entry and returns its promise; its message is the caller's now. */
  ChannelPromise remove() {
    Object msg = entries.poll();
    if (msg instanceof ByteBuf) {
      bytes -= ((ByteBuf) msg).readableBytes();
    }
    flushed--;
    return (ChannelPromise) entries.poll();
  }

  /** Notes that {@code n} bytes of the first buffer were taken (sliced off) to be sent. */
  void took(int n) {
    bytes -= n;
  }

  /** Bytes written and not yet sent. */
  long bytes() {
    return bytes;
  }

  /** Whether any buffer with bytes in it waits, flushed or not. */
  boolean holdsData() {
    return bytes > 0;
  }

  boolean isEmpty() {
    return entries.isEmpty();
  }

  /** Releases every buffer and fails every promise with {@code cause}. */
  void failAll(Throwable cause) {
    for (Object msg; (msg = entries.poll()) != null; ) {
      ChannelPromise promise = (ChannelPromise) entries.poll();
      if (msg instanceof ByteBuf) {
        ((ByteBuf) msg).release();
      }
      promise.tryFailure(cause);
    }
    flushed = 0;
    bytes = 0;
  }
}
