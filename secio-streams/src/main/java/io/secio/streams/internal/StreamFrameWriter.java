package io.secio.streams.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.VoidChannelPromise;
import java.util.function.Consumer;

/**
 * A muxer's frame writer ({@code docs/STREAMS.md} §3): one method per frame kind, writing to the
 * connection unflushed. This base holds what every muxer's writer shares: the three frames the
 * shared stream code asks for (a stream's data, its end, its reset), the quiet promise, the write of
 * a frame with a body (a small body is copied behind its header: one write instead of two), and the
 * bound on control frames the peer has not read ({@link ControlBacklog}), which every frame but data,
 * a stream's opening, a keepalive ping and the goodbye goes through.
 *
 * <p>Not thread-safe: the connection's event loop.
 */
public abstract class StreamFrameWriter {
  /** A body under this many bytes is copied behind its header. */
  private static final int COPY_BELOW_BYTES = 1024;

  /** The muxer handler's context: frames go below it. */
  protected final ChannelHandlerContext ctx;
  private final ChannelPromise quiet;
  private final ControlBacklog control;

  /**
   * A writer to the connection of {@code ctx}.
   *
   * @param ctx the muxer handler's context
   * @param control the bound on control frames unread, through which they are written
   */
  protected StreamFrameWriter(ChannelHandlerContext ctx, ControlBacklog control) {
    this.ctx = ctx;
    this.quiet = new VoidChannelPromise(ctx.channel(), false);
    this.control = control;
  }

  /** A void promise of the connection that stays quiet when its write fails (the connection is going). */
  public final ChannelPromise quietPromise() {
    return quiet;
  }

  /** Writes {@code data} (this writer owns it now) as one data frame of {@code stream}. */
  public abstract void writeData(AbstractStreamChannel stream, ByteBuf data, ChannelPromise promise);

  /** Writes {@code stream}'s end of stream (its half-close), a control frame; {@code promise} follows its write. */
  public abstract void writeEnd(AbstractStreamChannel stream, ChannelPromise promise);

  /** Writes {@code stream}'s reset, a control frame. */
  public abstract void writeReset(AbstractStreamChannel stream);

  /**
   * Writes a control frame with {@code frame}, given the promise to write it with; {@code false}
   * when the peer left too many unread: nothing is written, and the session ended.
   */
  protected final boolean control(Consumer<ChannelPromise> frame) {
    return control.write(frame);
  }

  /** As {@link #control(Consumer)}, completing {@code promise} with the frame's write, or failing it. */
  protected final boolean control(Consumer<ChannelPromise> frame, ChannelPromise promise) {
    return control.write(frame, promise);
  }

  /** Bytes of room a frame's header buffer needs after it for a body of {@code bodyBytes}. */
  protected static int roomFor(int bodyBytes) {
    return bodyBytes < COPY_BELOW_BYTES ? bodyBytes : 0;
  }

  /**
   * Writes {@code header} (allocated with {@link #roomFor} bytes after it) and {@code body}: one
   * buffer when the body is small, else two writes, the promise on the body's.
   */
  protected final void writeFrame(ByteBuf header, ByteBuf body, ChannelPromise promise) {
    if (body.readableBytes() < COPY_BELOW_BYTES) {
      header.writeBytes(body);
      body.release();
      ctx.write(header, promise);
    } else {
      ctx.write(header, quiet);
      ctx.write(body, promise);
    }
  }
}
