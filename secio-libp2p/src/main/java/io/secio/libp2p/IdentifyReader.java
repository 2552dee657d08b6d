package io.secio.libp2p;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.concurrent.Promise;
import io.secio.PeerId;
import io.secio.libp2p.Libp2pException.Reason;
import io.secio.netty.NegotiationCompletionEvent;
import io.secio.streams.StreamChannel;

/**
 * Reads the peer's identify record on a stream this side opened ({@code docs/STREAMS.md} §10): the
 * length prefix is checked against {@link Libp2pConfig#maxIdentifySize()} before the message is
 * held, the message is parsed and its key checked against the secure channel's peer id, and the
 * stream closes (reset when the record failed).
 *
 * <p>One per stream; the stream's event loop.
 */
final class IdentifyReader extends ChannelInboundHandlerAdapter {
  private final int maxSize;
  private final PeerId expected;
  private final Promise<IdentifyRecord> promise;
  private ByteBuf held;
  private int length = -1;

  IdentifyReader(int maxSize, PeerId expected, Promise<IdentifyRecord> promise) {
    this.maxSize = maxSize;
    this.expected = expected;
    this.promise = promise;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf in = (ByteBuf) msg;
    if (promise.isDone()) {
      in.release();
      return;
    }
    held = held == null ? in : ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(ctx.alloc(), held, in);
    try {
      if (length < 0) {
        length = LengthPrefix.read(held, maxSize);
      }
      if (length >= 0 && held.readableBytes() >= length) {
        byte[] message = new byte[length];
        held.readBytes(message);
        promise.trySuccess(IdentifyCodec.decode(message, expected));
        release();
        ctx.close();
      }
    } catch (Libp2pException e) {
      fail(ctx, e);
    }
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof NegotiationCompletionEvent failed && !failed.isSuccess()) {
      promise.tryFailure(failed.cause());
    }
    ctx.fireUserEventTriggered(evt);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    promise.tryFailure(cause);
    release();
    ctx.close();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    release();
    promise.tryFailure(new Libp2pException(Reason.IDENTIFY_MALFORMED, "the stream ended before the whole record"));
    ctx.fireChannelInactive();
  }

  private void fail(ChannelHandlerContext ctx, Libp2pException e) {
    promise.tryFailure(e);
    release();
    ((StreamChannel) ctx.channel()).reset();
  }

  private void release() {
    if (held != null) {
      held.release();
      held = null;
    }
  }
}
