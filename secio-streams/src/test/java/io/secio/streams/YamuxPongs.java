package io.secio.streams;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A peer's side of a yamux connection that reads everything (for the stacks' tests on loopback):
 * sends pings itself ({@link #pings}), reads the node's frames off the plaintext it gets, and
 * completes once it counted the expected pongs, each with the value of its ping, in order.
 */
public final class YamuxPongs extends ChannelInboundHandlerAdapter {
  /** Completes when every pong came, or fails at the first frame out of order. */
  public final CompletableFuture<Void> all = new CompletableFuture<>();
  private final int expected;
  private final ByteBuf frames = Unpooled.buffer();
  private int pongs;
  private long skip;

  /** Waits for the pongs of pings 1 to {@code expected}. */
  public YamuxPongs(int expected) {
    this.expected = expected;
  }

  /** {@code n} Ping SYNs with the values 1 to {@code n}, in one buffer. */
  public static ByteBuf pings(int n) {
    ByteBuf out = Unpooled.buffer(12 * n);
    for (int i = 1; i <= n; i++) {
      out.writeByte(0).writeByte(2).writeShort(1).writeInt(0).writeInt(i);
    }
    return out;
  }

  /**
   * Sends the pings over {@code c} in one write and waits for every pong (within the hang guard); the
   * node must still be up then, and must have heard of no failure. Closes the peer's channel.
   */
  public void pingAndAwait(OpenResetPeer.Connection c) throws Exception {
    try {
      c.peer().writeAndFlush(pings(expected));
      all.get(OpenResetPeer.GUARD_MINUTES, TimeUnit.MINUTES);
      assertTrue(c.node().isActive());
      assertFalse(c.ended().cause.isDone(), "the node heard of no failure");
    } finally {
      c.peer().close().sync();
    }
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf in = (ByteBuf) msg;
    try {
      frames.writeBytes(in);
    } finally {
      in.release();
    }
    while (true) {
      if (skip > 0) {
        int n = (int) Math.min(skip, frames.readableBytes());
        frames.skipBytes(n);
        skip -= n;
        if (skip > 0) {
          break;
        }
      }
      if (frames.readableBytes() < 12) {
        break;
      }
      int type = frames.getUnsignedByte(frames.readerIndex() + 1);
      int flags = frames.getUnsignedShort(frames.readerIndex() + 2);
      long length = frames.getUnsignedInt(frames.readerIndex() + 8);
      frames.skipBytes(12);
      if (type == 0) {
        skip = length; // a Data frame's body
      } else if (type == 2 && flags == 2) {
        if (length != ++pongs) {
          all.completeExceptionally(new AssertionError("pong " + length + " where " + pongs + " was due"));
        } else if (pongs == expected) {
          all.complete(null);
        }
      }
    }
    frames.discardReadBytes();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    all.completeExceptionally(new AssertionError("closed after " + pongs + " pongs of " + expected));
    frames.release();
    ctx.fireChannelInactive();
  }
}
