package io.secio.examples.cli;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * The pacing of an echo: what a subclass writes back in {@code channelRead} is flushed at the end of
 * each read, and reading pauses while the channel cannot take more, so memory stays bounded however
 * fast the peer sends. A subclass writes only its {@code channelRead} (and its own events).
 */
abstract class PacedEcho extends ChannelInboundHandlerAdapter {
  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    ctx.flush();
    if (!ctx.channel().isWritable()) {
      ctx.channel().config().setAutoRead(false);
    }
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    if (ctx.channel().isWritable()) {
      ctx.channel().config().setAutoRead(true);
    }
    ctx.fireChannelWritabilityChanged();
  }
}
