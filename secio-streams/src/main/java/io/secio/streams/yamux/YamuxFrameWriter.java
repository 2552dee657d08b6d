package io.secio.streams.yamux;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.secio.streams.internal.AbstractStreamChannel;
import io.secio.streams.internal.ControlBacklog;
import io.secio.streams.internal.StreamFrameWriter;

/**
 * Writes yamux frames ({@code docs/STREAMS.md} §4; the format is in {@link YamuxFrames}), one method
 * per frame, to the connection and unflushed. The frames are tentacle's byte for byte: a stream opens
 * with {@code WindowUpdate SYN} and accepts with {@code WindowUpdate ACK}, both carrying the grant
 * above 256 KiB; it closes with {@code WindowUpdate FIN} and resets with {@code WindowUpdate RST},
 * length 0; a refused SYN gets {@code WindowUpdate ACK|RST}. Every frame but Data, SYN, our Ping and
 * GoAway is a control frame, written within the bound on what the peer has not read.
 *
 * <p>Not thread-safe: the connection's event loop.
 */
final class YamuxFrameWriter extends StreamFrameWriter {

  YamuxFrameWriter(ChannelHandlerContext ctx, ControlBacklog control) {
    super(ctx, control);
  }

  /** Data on stream {@code streamId}; this writer owns {@code data} now. */
  void writeData(long streamId, ByteBuf data, ChannelPromise promise) {
    int n = data.readableBytes();
    writeFrame(header(YamuxFrames.TYPE_DATA, 0, streamId, n, roomFor(n)), data, promise);
  }

  /** Opens stream {@code streamId}, granting {@code delta} above the initial window. */
  void writeSyn(long streamId, long delta, ChannelPromise promise) {
    windowUpdate(YamuxFrames.FLAG_SYN, streamId, delta, promise);
  }

  /**
   * Accepts the peer's stream {@code streamId}, granting {@code delta} above the initial window; a
   * control frame: {@code false} when the peer left too many unread (the session ended).
   */
  boolean writeAck(long streamId, long delta) {
    return control(promise -> windowUpdate(YamuxFrames.FLAG_ACK, streamId, delta, promise));
  }

  /** Grants {@code delta} more credit on stream {@code streamId}; a control frame. */
  void writeWindowUpdate(long streamId, long delta) {
    control(promise -> windowUpdate(0, streamId, delta, promise));
  }

  /** Half-closes stream {@code streamId}; a control frame. */
  void writeFin(long streamId, ChannelPromise promise) {
    control(p -> windowUpdate(YamuxFrames.FLAG_FIN, streamId, 0, p), promise);
  }

  /** Resets stream {@code streamId}; a control frame. */
  void writeRst(long streamId) {
    control(promise -> windowUpdate(YamuxFrames.FLAG_RST, streamId, 0, promise));
  }

  /** Refuses the peer's SYN on {@code streamId}: it is answered, and reset at once; a control frame. */
  void writeRefusal(long streamId) {
    control(promise -> windowUpdate(YamuxFrames.FLAG_ACK | YamuxFrames.FLAG_RST, streamId, 0, promise));
  }

  /** A keepalive ping carrying {@code opaque}. */
  void writePing(long opaque, ChannelPromise promise) {
    ctx.write(header(YamuxFrames.TYPE_PING, YamuxFrames.FLAG_SYN, 0, opaque, 0), promise);
  }

  /** The answer to the peer's ping carrying {@code opaque}; a control frame. */
  void writePong(long opaque) {
    control(promise -> ctx.write(header(YamuxFrames.TYPE_PING, YamuxFrames.FLAG_ACK, 0, opaque, 0), promise));
  }

  /** The session's end, with {@code code}. */
  void writeGoAway(long code, ChannelPromise promise) {
    ctx.write(header(YamuxFrames.TYPE_GO_AWAY, 0, 0, code, 0), promise);
  }

  @Override
  public void writeData(AbstractStreamChannel stream, ByteBuf data, ChannelPromise promise) {
    writeData(stream.streamId(), data, promise);
  }

  @Override
  public void writeEnd(AbstractStreamChannel stream, ChannelPromise promise) {
    writeFin(stream.streamId(), promise);
  }

  @Override
  public void writeReset(AbstractStreamChannel stream) {
    writeRst(stream.streamId());
  }

  private void windowUpdate(int flags, long streamId, long delta, ChannelPromise promise) {
    ctx.write(header(YamuxFrames.TYPE_WINDOW_UPDATE, flags, streamId, delta, 0), promise);
  }

  /** A header with {@code room} bytes after it (for a small body copied in). */
  private ByteBuf header(int type, int flags, long streamId, long length, int room) {
    ByteBuf header = ctx.alloc().ioBuffer(YamuxFrames.HEADER_SIZE_IN_BYTES + room);
    header.writeByte(YamuxFrames.VERSION);
    header.writeByte(type);
    header.writeShort(flags);
    header.writeInt((int) streamId);
    header.writeInt((int) length);
    return header;
  }
}
