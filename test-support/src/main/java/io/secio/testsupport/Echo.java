package io.secio.testsupport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.AttributeKey;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Echoes every read back on its channel, a connection or a stream, whatever its messages' cut:
 * written as read, flushed at each read-complete. After the peer's half-close (seen only where the
 * channel allows half-closure, which {@link #allowingHalfClosure()} turns on for each channel it is
 * added to, as a libp2p stream's echo wants) it half-closes too, once what it echoed is written. It reads on its
 * own when auto-read is off: at each read-complete and each user event (a handshake's or a
 * negotiation's completion hands the reading to it). An exception closes the channel, unless the echo
 * is {@link #passingExceptionsOn()}.
 *
 * <p>{@code @Sharable} and stateless but for the optional byte count, which then adds up every
 * channel it is on.
 */
@ChannelHandler.Sharable
public final class Echo extends ChannelInboundHandlerAdapter {
  /** A channel's last echo write: its half-close waits for it. */
  private static final AttributeKey<ChannelFuture> LAST_WRITE = AttributeKey.valueOf(Echo.class, "lastWrite");

  private final AtomicLong echoed;
  private final boolean allowHalfClosure;
  private final boolean closeOnException;

  /** An echo that counts nothing. */
  public Echo() {
    this(new AtomicLong());
  }

  /** An echo that adds the size of every read to {@code echoed}. */
  public Echo(AtomicLong echoed) {
    this(echoed, false, true);
  }

  private Echo(AtomicLong echoed, boolean allowHalfClosure, boolean closeOnException) {
    this.echoed = echoed;
    this.allowHalfClosure = allowHalfClosure;
    this.closeOnException = closeOnException;
  }

  /** An echo that allows half-closure on its channel, so that it answers the peer's with its own. */
  public static Echo allowingHalfClosure() {
    return new Echo(new AtomicLong(), true, true);
  }

  /**
   * An echo that passes an exception on to the next handler and leaves the channel as the stack
   * leaves it: a {@link Collect#observing()} after it records how a stream ended (a reset, an error).
   */
  public static Echo passingExceptionsOn() {
    return new Echo(new AtomicLong(), false, false);
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    if (allowHalfClosure) {
      ctx.channel().config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
    }
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof ByteBuf buf) {
      echoed.addAndGet(buf.readableBytes());
    }
    ctx.channel().attr(LAST_WRITE).set(ctx.write(msg));
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    ctx.flush();
    readIfAutoReadIsOff(ctx);
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof ChannelInputShutdownEvent && ctx.channel() instanceof DuplexChannel duplex) {
      ctx.flush();
      ChannelFuture last = ctx.channel().attr(LAST_WRITE).getAndSet(null);
      if (last == null) {
        duplex.shutdownOutput();
      } else {
        last.addListener(f -> duplex.shutdownOutput());
      }
    }
    readIfAutoReadIsOff(ctx);
    ctx.fireUserEventTriggered(evt);
  }

  private static void readIfAutoReadIsOff(ChannelHandlerContext ctx) {
    if (!ctx.channel().config().isAutoRead()) {
      ctx.read();
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (closeOnException) {
      ctx.close();
    } else {
      ctx.fireExceptionCaught(cause);
    }
  }
}
