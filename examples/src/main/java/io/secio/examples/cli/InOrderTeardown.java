package io.secio.examples.cli;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Removes the handlers before it, head first, when the channel is unregistered. Netty's own teardown
 * removes them tail first, so a handshake handler that fails on removal (a connection that never
 * became active: refused, timed out) would fire {@code exceptionCaught} past handlers already gone,
 * to the pipeline's tail, which logs it with a stack trace. Removed head first, each failure reaches
 * the handlers after it, which report or drop it. Goes last; not sharable.
 */
public final class InOrderTeardown extends ChannelInboundHandlerAdapter {
  @Override
  public void channelUnregistered(ChannelHandlerContext ctx) {
    if (!ctx.channel().isOpen()) {
      List<ChannelHandler> before = new ArrayList<>();
      for (Map.Entry<String, ChannelHandler> e : ctx.pipeline()) {
        if (e.getValue() == this) {
          break;
        }
        before.add(e.getValue());
      }
      before.forEach(ctx.pipeline()::remove);
    }
    ctx.fireChannelUnregistered();
  }
}
