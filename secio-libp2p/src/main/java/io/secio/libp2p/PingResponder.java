package io.secio.libp2p;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.secio.streams.StreamChannel;

/**
 * Serves the peer's ping stream ({@code docs/STREAMS.md} §10): every 32 bytes are echoed once
 * they are all in, however they were cut, so the stream holds at most 31 bytes. While the echoes
 * cannot leave (the stream is unwritable: a peer that does not read them), the stream is not read,
 * so what waits is bounded by the muxer (yamux's window, mplex's stream buffer), not held here. A
 * peer keeps one inbound ping stream across the connections of one config: a newer one resets the
 * older ({@link InboundPings}).
 *
 * <p>One per stream; the stream's event loop.
 */
final class PingResponder extends ChannelInboundHandlerAdapter {
  /** The size of a ping. */
  static final int PING_SIZE_IN_BYTES = 32;

  private final Libp2pSession session;
  private ByteBuf ping;

  PingResponder(Libp2pSession session) {
    this.session = session;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    session.inboundPing((StreamChannel) ctx.channel());
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf in = (ByteBuf) msg;
    boolean echoed = false;
    try {
      while (in.isReadable()) {
        if (ping == null) {
          ping = ctx.alloc().buffer(PING_SIZE_IN_BYTES);
        }
        in.readBytes(ping, Math.min(ping.writableBytes(), in.readableBytes()));
        if (!ping.isWritable()) {
          ByteBuf echo = ping;
          ping = null;
          ctx.write(echo);
          echoed = true;
        }
      }
    } finally {
      in.release();
    }
    if (echoed) {
      ctx.flush(); // one flush for every whole ping this read held
    }
    readWhileWritable(ctx);
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    readWhileWritable(ctx);
    ctx.fireChannelWritabilityChanged();
  }

  /** Reads on only while echoes can leave: a peer that does not read them stops being read. */
  private static void readWhileWritable(ChannelHandlerContext ctx) {
    ctx.channel().config().setAutoRead(ctx.channel().isWritable());
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    ctx.close();
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    if (ping != null) {
      ping.release();
      ping = null;
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    handlerRemoved(ctx);
    ctx.fireChannelInactive();
  }
}
