package io.secio.netty.hostile;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Put first in a real node's pipeline: counts the socket reads and the bytes they carry, so that a
 * trickling peer can wait, after each byte it writes, until the node has read it ({@link #awaitByte}).
 * One per channel; thread-safe.
 */
public final class ByteGate extends ChannelInboundHandlerAdapter {
  private final Semaphore bytes = new Semaphore(0);
  private final AtomicInteger reads = new AtomicInteger();

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof ByteBuf) {
      reads.incrementAndGet();
      bytes.release(((ByteBuf) msg).readableBytes());
    }
    ctx.fireChannelRead(msg);
  }

  /** Waits until one more byte has been read; fails the test if it is not within the bound. */
  public void awaitByte() {
    try {
      if (!bytes.tryAcquire(HostileConfigs.WAIT_SECONDS, TimeUnit.SECONDS)) {
        throw new AssertionError("the node did not read the byte just written");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** How many reads delivered bytes. */
  public int reads() {
    return reads.get();
  }
}
