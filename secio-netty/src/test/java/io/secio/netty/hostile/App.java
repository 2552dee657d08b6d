package io.secio.netty.hostile;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.secio.netty.SecioHandshakeCompletionEvent;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The application end of a real secio pipeline in these tests: records every plaintext byte, every
 * handshake completion event and every exception that reaches it, releasing each buffer. Forged data
 * that got through would show up in {@link #received()}.
 *
 * <p>Thread-safe: the event loop records, the test thread reads and waits.
 */
public final class App extends ChannelInboundHandlerAdapter {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final List<SecioHandshakeCompletionEvent> completions = new ArrayList<>();
  private final List<Throwable> exceptions = new ArrayList<>();
  private int inputShutdowns;

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf buf = (ByteBuf) msg;
    try {
      byte[] b = new byte[buf.readableBytes()];
      buf.readBytes(b);
      synchronized (this) {
        bytes.writeBytes(b);
        notifyAll();
      }
    } finally {
      buf.release();
    }
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    synchronized (this) {
      if (evt instanceof SecioHandshakeCompletionEvent) {
        completions.add((SecioHandshakeCompletionEvent) evt);
      } else if (evt instanceof ChannelInputShutdownEvent) {
        inputShutdowns++;
      }
      notifyAll();
    }
    ctx.fireUserEventTriggered(evt);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    synchronized (this) {
      exceptions.add(cause);
      notifyAll();
    }
    ctx.close();
  }

  /** Every plaintext byte received so far. */
  public synchronized byte[] received() {
    return bytes.toByteArray();
  }

  public synchronized List<SecioHandshakeCompletionEvent> completions() {
    return List.copyOf(completions);
  }

  public synchronized List<Throwable> exceptions() {
    return List.copyOf(exceptions);
  }

  public synchronized int inputShutdowns() {
    return inputShutdowns;
  }

  /** Waits until at least {@code count} plaintext bytes have arrived; false if they did not in time. */
  public boolean awaitBytes(int count, long seconds) throws InterruptedException {
    return await(a -> a.bytes.size() >= count, seconds);
  }

  /** Waits for the handshake completion event (it may follow the handshake future by a moment). */
  public boolean awaitCompletion(long seconds) throws InterruptedException {
    return await(a -> !a.completions.isEmpty(), seconds);
  }

  /** Waits for at least {@code count} exceptions. */
  public boolean awaitExceptions(int count, long seconds) throws InterruptedException {
    return await(a -> a.exceptions.size() >= count, seconds);
  }

  private synchronized boolean await(Predicate<App> done, long seconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!done.test(this)) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return true;
  }
}
