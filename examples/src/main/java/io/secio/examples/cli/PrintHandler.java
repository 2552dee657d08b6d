package io.secio.examples.cli;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import java.io.IOException;
import java.io.PrintStream;

/**
 * Writes the plaintext a peer sends to an output stream, as it arrives, and closes the connection
 * when the peer stops sending. Writes to the stream hold its lock, so data of several peers and the
 * status lines printed with {@code println} never cut into each other mid-chunk. Not sharable.
 */
final class PrintHandler extends ChannelInboundHandlerAdapter {
  private final PrintStream out;

  PrintHandler(PrintStream out) {
    this.out = out;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) throws IOException {
    ByteBuf buf = (ByteBuf) msg;
    try {
      synchronized (out) {
        buf.readBytes(out, buf.readableBytes());
      }
    } finally {
      buf.release();
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    out.flush();
    ctx.fireChannelReadComplete();
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof ChannelInputShutdownEvent) {
      ctx.close();
    }
    ctx.fireUserEventTriggered(evt);
  }
}
