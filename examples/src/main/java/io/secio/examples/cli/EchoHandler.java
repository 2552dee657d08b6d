package io.secio.examples.cli;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.secio.netty.SecioHandshakeCompletionEvent;

/**
 * Echoes every plaintext byte back. Reading pauses while the peer is slow to take the echo ({@link
 * PacedEcho}), so memory stays bounded whatever the peer sends. When the peer half-closes, the echo of what it sent is
 * finished and then the connection closed. Not sharable.
 */
final class EchoHandler extends PacedEcho {
  private boolean secured;

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof SecioHandshakeCompletionEvent) {
      secured = ((SecioHandshakeCompletionEvent) evt).isSuccess();
    } else if (evt instanceof ChannelInputShutdownEvent) {
      if (secured) {
        // The empty write completes after every echo written before it.
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
      } else {
        ctx.close(); // a peer that stops sending mid-handshake will never finish it
      }
    }
    ctx.fireUserEventTriggered(evt);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ctx.write(msg);
  }
}
