package io.secio.libp2p;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import java.io.ByteArrayOutputStream;
import java.util.concurrent.CompletableFuture;

/** A stream's end for the tests: keeps every byte, completes at the peer's half-close (or the close). */
final class Received extends ChannelInboundHandlerAdapter {
  final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  final CompletableFuture<byte[]> ended = new CompletableFuture<>();

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    ctx.channel().config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf buf = (ByteBuf) msg;
    synchronized (bytes) {
      byte[] b = new byte[buf.readableBytes()];
      buf.readBytes(b);
      bytes.writeBytes(b);
    }
    buf.release();
  }

  synchronized int size() {
    synchronized (bytes) {
      return bytes.size();
    }
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof ChannelInputShutdownEvent) {
      synchronized (bytes) {
        ended.complete(bytes.toByteArray());
      }
      ctx.close();
    }
    ctx.fireUserEventTriggered(evt);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    ended.completeExceptionally(cause);
    ctx.close();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    ended.completeExceptionally(new IllegalStateException("closed before the peer's half-close"));
    ctx.fireChannelInactive();
  }
}
