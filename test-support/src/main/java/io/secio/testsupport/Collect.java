package io.secio.testsupport;

import static org.junit.jupiter.api.Assertions.fail;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.ChannelInputShutdownReadComplete;
import io.netty.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * Records what a channel's pipeline reads (a connection's or a stream's): every message as bytes
 * (a tentacle stream's messages stay apart; a byte stream's reads come however they were cut), the
 * events in order ({@code active}, {@code inputShutdown}, {@code inputShutdownReadComplete}, {@code
 * exception NAME}, {@code inactive}) and the exceptions; and waits for them with a hang guard,
 * {@link #WAIT}. Every buffer is released once recorded, and nothing it records is passed on but
 * the events. An exception closes the channel, unless the collector is {@link #observing()}; the
 * peer's half-close is seen where the channel allows it ({@link #allowingHalfClosure()} turns that
 * on for each channel it is added to). It leaves reading to the channel's auto-read, so that a test
 * may hold a stream's reads back, unless it is {@link #reading()}.
 *
 * <p>{@code @Sharable}: on several channels (a protocol's streams), their reads and events go to one
 * record in the order they came. Thread-safe: the waits run on the test's thread.
 */
@ChannelHandler.Sharable
public final class Collect extends ChannelInboundHandlerAdapter {
  /** Bounds every wait: a hang guard, never a speed check. */
  public static final Duration WAIT = Duration.ofMinutes(2);

  private final boolean closeOnException;
  private final boolean allowHalfClosure;
  private final boolean reading;
  private final List<String> events = new CopyOnWriteArrayList<>();
  private final List<Throwable> exceptions = new CopyOnWriteArrayList<>();
  // Guarded by this.
  private final List<byte[]> messages = new ArrayList<>();
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private int nextMessage;
  private boolean halfClosed;
  private boolean inactive;

  /** A collector that closes the channel on an exception. */
  public Collect() {
    this(true, false, false);
  }

  private Collect(boolean closeOnException, boolean allowHalfClosure, boolean reading) {
    this.closeOnException = closeOnException;
    this.allowHalfClosure = allowHalfClosure;
    this.reading = reading;
  }

  /** A collector that records exceptions and leaves the channel as the stack leaves it. */
  public static Collect observing() {
    return new Collect(false, false, false);
  }

  /** A collector that allows half-closure on its channel, so that it sees the peer's half-close. */
  public static Collect allowingHalfClosure() {
    return new Collect(true, true, false);
  }

  /**
   * A collector that reads on its own when auto-read is off, as {@link Echo} does: at each
   * read-complete and each user event (a handshake's completion hands the reading to it).
   */
  public static Collect reading() {
    return new Collect(true, false, true);
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    if (allowHalfClosure) {
      ctx.channel().config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
    }
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    events.add("active");
    ctx.fireChannelActive();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    try {
      ByteBuf buf = (ByteBuf) msg;
      byte[] message = new byte[buf.readableBytes()];
      buf.getBytes(buf.readerIndex(), message);
      synchronized (this) {
        messages.add(message);
        bytes.writeBytes(message);
        notifyAll();
      }
    } finally {
      ReferenceCountUtil.release(msg);
    }
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof ChannelInputShutdownEvent) {
      events.add("inputShutdown");
      synchronized (this) {
        halfClosed = true;
        notifyAll();
      }
    } else if (evt instanceof ChannelInputShutdownReadComplete) {
      events.add("inputShutdownReadComplete");
    }
    readIfAsked(ctx);
    ctx.fireUserEventTriggered(evt);
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    readIfAsked(ctx);
    ctx.fireChannelReadComplete();
  }

  private void readIfAsked(ChannelHandlerContext ctx) {
    if (reading && !ctx.channel().config().isAutoRead()) {
      ctx.read();
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    exceptions.add(cause);
    events.add("exception " + cause.getClass().getSimpleName());
    synchronized (this) {
      notifyAll();
    }
    if (closeOnException) {
      ctx.close();
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    events.add("inactive");
    synchronized (this) {
      inactive = true;
      notifyAll();
    }
    ctx.fireChannelInactive();
  }

  /** Every byte read so far, in order. */
  public synchronized byte[] received() {
    return bytes.toByteArray();
  }

  /** Every message read so far, in order. */
  public synchronized List<byte[]> messages() {
    return List.copyOf(messages);
  }

  /** The events so far, in order. */
  public List<String> events() {
    return List.copyOf(events);
  }

  /** The exceptions so far, in order. */
  public List<Throwable> exceptions() {
    return List.copyOf(exceptions);
  }

  /** The first {@code n} bytes read, once they came; fails if the channel ended with fewer. */
  public synchronized byte[] awaitBytes(int n) {
    long deadline = deadline();
    while (bytes.size() < n) {
      if (inactive) {
        fail("the channel closed after " + bytes.size() + " of " + n + " bytes: " + this);
      }
      waitUntil(deadline, n + " bytes");
    }
    return Arrays.copyOf(bytes.toByteArray(), n);
  }

  /** The next message not taken by this method yet, once it came. */
  public synchronized byte[] nextMessage() {
    long deadline = deadline();
    while (messages.size() <= nextMessage) {
      if (inactive) {
        fail("the channel closed after " + messages.size() + " messages: " + this);
      }
      waitUntil(deadline, "message " + nextMessage);
    }
    return messages.get(nextMessage++);
  }

  /** Every byte read, once the peer half-closed or the channel closed. */
  public synchronized byte[] awaitEnd() {
    long deadline = deadline();
    while (!halfClosed && !inactive) {
      waitUntil(deadline, "the end of input");
    }
    return bytes.toByteArray();
  }

  /** Every byte read, once the peer half-closed; fails if the channel closed before it did. */
  public synchronized byte[] awaitHalfClose() {
    long deadline = deadline();
    while (!halfClosed) {
      if (inactive) {
        fail("the channel closed before the peer's half-close: " + this);
      }
      waitUntil(deadline, "the peer's half-close");
    }
    return bytes.toByteArray();
  }

  /** The first exception, once one came. */
  public synchronized Throwable awaitException() {
    long deadline = deadline();
    while (exceptions.isEmpty()) {
      waitUntil(deadline, "an exception");
    }
    return exceptions.get(0);
  }

  /** Waits until the channel closed. */
  public synchronized void awaitInactive() {
    long deadline = deadline();
    while (!inactive) {
      waitUntil(deadline, "the close");
    }
  }

  private static long deadline() {
    return System.nanoTime() + WAIT.toNanos();
  }

  private void waitUntil(long deadline, String what) {
    long left = deadline - System.nanoTime();
    if (left <= 0) {
      fail("hang guard: no " + what + " within " + WAIT + ": " + this);
    }
    try {
      TimeUnit.NANOSECONDS.timedWait(this, left);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      fail("interrupted waiting for " + what);
    }
  }

  @Override
  public synchronized String toString() {
    return "Collect(" + bytes.size() + " bytes in " + messages.size() + " messages, events " + events
        + ", exceptions " + exceptions + ")";
  }
}
