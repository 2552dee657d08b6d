package io.secio.examples.cli;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Discards what the peer sends and answers one byte once {@code total} bytes have arrived: the far
 * end of a one-way {@link Transfer} with {@link Transfer.Reply#ACK}. Not sharable.
 */
final class AckingSink extends ChannelInboundHandlerAdapter {
  /** The one byte of the acknowledgement. */
  static final byte ACK = 1;

  private final long total;
  private long received;

  AckingSink(long total) {
    this.total = total;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf buf = (ByteBuf) msg;
    boolean wasShort = received < total;
    received += buf.readableBytes();
    buf.release();
    if (wasShort && received >= total) {
      ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {ACK}));
    }
  }
}
