package io.secio.streams.mplex;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.secio.streams.internal.AbstractStreamChannel;
import io.secio.streams.internal.ControlBacklog;
import io.secio.streams.internal.StreamFrameWriter;

/**
 * Writes mplex frames ({@code docs/STREAMS.md} §9.1; the format is in {@link MplexFrames}), one
 * method per frame, to the connection and unflushed. {@code initiator} says whose stream it is: the
 * writer's own (it opened it) or the peer's, which picks the flag. Close and Reset are control frames,
 * written within the bound on what the peer has not read.
 *
 * <p>Not thread-safe: the connection's event loop.
 */
final class MplexFrameWriter extends StreamFrameWriter {

  MplexFrameWriter(ChannelHandlerContext ctx, ControlBacklog control) {
    super(ctx, control);
  }

  /** Opens our stream {@code streamId}, named by its id in decimal as js-libp2p-mplex and go-mplex name theirs. */
  void writeNewStream(long streamId, ChannelPromise promise) {
    ByteBuf name = ByteBufUtil.writeAscii(ctx.alloc(), Long.toString(streamId));
    int n = name.readableBytes();
    writeFrame(header(streamId, MplexFrames.NEW_STREAM, n, roomFor(n)), name, promise);
  }

  /** A message on stream {@code streamId}; this writer owns {@code data} now. */
  void writeMessage(long streamId, boolean initiator, ByteBuf data, ChannelPromise promise) {
    int n = data.readableBytes();
    writeFrame(header(streamId, MplexFrames.message(initiator), n, roomFor(n)), data, promise);
  }

  /** Half-closes stream {@code streamId}; a control frame. */
  void writeClose(long streamId, boolean initiator, ChannelPromise promise) {
    control(p -> ctx.write(header(streamId, MplexFrames.close(initiator), 0, 0), p), promise);
  }

  /** Resets stream {@code streamId} (the peer's stream, for a NewStream refused); a control frame. */
  void writeReset(long streamId, boolean initiator) {
    control(promise -> ctx.write(header(streamId, MplexFrames.reset(initiator), 0, 0), promise));
  }

  @Override
  public void writeData(AbstractStreamChannel stream, ByteBuf data, ChannelPromise promise) {
    writeMessage(stream.streamId(), stream.isInitiator(), data, promise);
  }

  @Override
  public void writeEnd(AbstractStreamChannel stream, ChannelPromise promise) {
    writeClose(stream.streamId(), stream.isInitiator(), promise);
  }

  @Override
  public void writeReset(AbstractStreamChannel stream) {
    writeReset(stream.streamId(), stream.isInitiator());
  }

  /** A frame's header and length, with {@code room} more bytes for its data. */
  private ByteBuf header(long streamId, int flag, int length, int room) {
    ByteBuf buf = ctx.alloc().buffer(MplexFrames.MAX_HEADER_VARINT_BYTES + MplexFrames.MAX_LENGTH_VARINT_BYTES + room);
    writeVarint(buf, streamId << 3 | flag);
    writeVarint(buf, length);
    return buf;
  }

  /** Writes {@code value} (not negative) as a minimal unsigned varint. */
  private static void writeVarint(ByteBuf buf, long value) {
    while ((value & ~0x7FL) != 0) {
      buf.writeByte((int) (value & 0x7F) | 0x80);
      value >>>= 7;
    }
    buf.writeByte((int) value);
  }
}
