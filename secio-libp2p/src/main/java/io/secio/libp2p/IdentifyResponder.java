package io.secio.libp2p;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.ReferenceCountUtil;

/**
 * Answers the peer's identify request ({@code docs/STREAMS.md} §10): once the stream agreed on
 * {@code /ipfs/id/1.0.0}, one length-prefixed {@code Identify}, the half-close after it, then the
 * close. What the peer sends on the stream is dropped.
 *
 * <p>One per stream; the stream's event loop.
 */
final class IdentifyResponder extends ChannelInboundHandlerAdapter {
  private final Libp2pSession session;

  IdentifyResponder(Libp2pSession session) {
    this.session = session;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    DuplexChannel stream = (DuplexChannel) ctx.channel();
    ctx.writeAndFlush(IdentifyCodec.encode(ctx.alloc(), session.localKey(), session.config(),
        stream.parent().remoteAddress()));
    stream.shutdownOutput().addListener(f -> ctx.close());
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ReferenceCountUtil.release(msg);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    ctx.close();
  }
}
