package io.secio.libp2p;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;

/** {@code /echo/1.0.0} for the tests: every byte back until the peer's half-close, then ours. Stateless. */
@ChannelHandler.Sharable
final class EchoStream extends ChannelInboundHandlerAdapter {
  static final String PROTOCOL = "/echo/1.0.0";

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    ctx.channel().config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ctx.write(msg);
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    ctx.flush();
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof ChannelInputShutdownEvent) {
      ctx.flush();
      ((DuplexChannel) ctx.channel()).shutdownOutput();
    }
    ctx.fireUserEventTriggered(evt);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    ctx.close();
  }
}
