package io.secio.libp2p;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.Promise;
import io.secio.libp2p.Libp2pException.Reason;
import io.secio.netty.NegotiationCompletionEvent;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;

/**
 * One ping on a stream this side opened ({@code docs/STREAMS.md} §10): once the stream agreed on
 * {@code /ipfs/ping/1.0.0}, 32 random bytes go out and the clock starts; the echo, checked byte for
 * byte, stops it, and the stream closes.
 *
 * <p>One per stream; the stream's event loop.
 */
final class PingRequester extends ChannelInboundHandlerAdapter {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Promise<Duration> promise;
  private final byte[] sent = new byte[PingResponder.PING_SIZE_IN_BYTES];
  private final byte[] echo = new byte[PingResponder.PING_SIZE_IN_BYTES];
  private int echoed;
  private long sentAt;

  PingRequester(Promise<Duration> promise) {
    this.promise = promise;
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof NegotiationCompletionEvent agreed) {
      if (agreed.isSuccess()) {
        RANDOM.nextBytes(sent);
        sentAt = System.nanoTime();
        ctx.writeAndFlush(Unpooled.wrappedBuffer(sent.clone()));
      } else {
        promise.tryFailure(agreed.cause());
      }
    }
    ctx.fireUserEventTriggered(evt);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf in = (ByteBuf) msg;
    try {
      int n = Math.min(in.readableBytes(), echo.length - echoed);
      in.readBytes(echo, echoed, n);
      echoed += n;
      if (in.isReadable()) {
        promise.tryFailure(new Libp2pException(Reason.PING_MISMATCH, "more than 32 bytes came back"));
        ctx.close();
      } else if (echoed == echo.length) {
        long nanos = System.nanoTime() - sentAt;
        if (Arrays.equals(sent, echo)) {
          promise.trySuccess(Duration.ofNanos(nanos));
        } else {
          promise.tryFailure(new Libp2pException(Reason.PING_MISMATCH, "the echo is not what was sent"));
        }
        ctx.close();
      }
    } finally {
      in.release();
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    promise.tryFailure(cause);
    ctx.close();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    promise.tryFailure(new Libp2pException(Reason.PING_MISMATCH, "the stream ended after " + echoed + " of 32 bytes"));
    ctx.fireChannelInactive();
  }
}
