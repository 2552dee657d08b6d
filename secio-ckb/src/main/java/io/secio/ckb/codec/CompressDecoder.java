package io.secio.ckb.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.secio.ckb.CkbException;
import io.secio.streams.StreamChannel;

/**
 * The compress codec inbound ({@link CompressCodec#decode}) on a protocol stream, after tentacle's
 * length-delimited decoder: each message in, its payload out. A message the codec refuses goes to
 * {@code exceptionCaught} as a {@link CkbException} ({@link CkbException.Reason#BAD_FRAME}) and the
 * stream is reset; nothing after it is passed on. Not sharable.
 */
public final class CompressDecoder extends ChannelInboundHandlerAdapter {
  private boolean failed;

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof ByteBuf message)) {
      ctx.fireChannelRead(msg);
      return;
    }
    if (failed) {
      message.release();
      return;
    }
    ByteBuf payload;
    try {
      payload = CompressCodec.decode(ctx.alloc(), message);
    } catch (CkbException e) {
      failed = true;
      ctx.fireExceptionCaught(e);
      if (ctx.channel() instanceof StreamChannel stream) {
        stream.reset();
      } else {
        ctx.close();
      }
      return;
    } finally {
      message.release();
    }
    ctx.fireChannelRead(payload);
  }
}
