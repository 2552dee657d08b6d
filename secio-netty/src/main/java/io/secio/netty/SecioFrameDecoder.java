package io.secio.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.DecoderException;
import io.secio.SecioException;
import java.util.List;

/**
 * Splits the inbound byte stream into secio frames (spec section 1) and emits each payload, without
 * its 4-byte length prefix, as a retained slice that the next handler must release.
 *
 * <pre>
 * +----------------------+-------------------------+
 * | length (u32, BE)     | payload (length bytes)  |
 * +----------------------+-------------------------+
 * </pre>
 *
 * <p>A declared length over {@code maxFrameLength} (inclusive limit) fails from the header alone,
 * before any of the body is buffered, with a {@link DecoderException} whose cause is a {@link
 * SecioException} of reason {@link SecioException.Reason#FRAME_TOO_LONG}; every byte after it is
 * discarded. The declared length is never allocated up front: the cumulation grows with the bytes
 * actually received.
 *
 * <p>Stateful, so never shared: one instance per channel, used on its event loop only.
 */
public final class SecioFrameDecoder extends ByteToMessageDecoder {
  /** Size of the length prefix in front of every frame. */
  public static final int LENGTH_FIELD_SIZE_IN_BYTES = 4;

  private final int maxFrameLength;
  private boolean failed;

  /** A decoder that accepts payloads of up to {@code maxFrameLength} bytes, inclusive. */
  public SecioFrameDecoder(int maxFrameLength) {
    if (maxFrameLength < 0) {
      throw new IllegalArgumentException("maxFrameLength must not be negative: " + maxFrameLength);
    }
    this.maxFrameLength = maxFrameLength;
    // Frames rarely end where a read ends: copy only the frame that straddles two reads.
    setCumulator(new FrameCumulator(maxFrameLength));
  }

  /** The largest payload accepted, in bytes. */
  public int maxFrameLength() {
    return maxFrameLength;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (failed) {
      // After a fatal frame error nothing more is decoded: the stream has lost its framing.
      in.skipBytes(in.readableBytes());
      return;
    }
    if (in.readableBytes() < LENGTH_FIELD_SIZE_IN_BYTES) {
      return;
    }
    long length = in.getUnsignedInt(in.readerIndex());
    if (length > maxFrameLength) {
      failed = true;
      in.skipBytes(in.readableBytes());
      throw new DecoderException(new SecioException(
          SecioException.Reason.FRAME_TOO_LONG,
          "declared " + length + " bytes, limit " + maxFrameLength));
    }
    if (in.readableBytes() - LENGTH_FIELD_SIZE_IN_BYTES < length) {
      return;
    }
    in.skipBytes(LENGTH_FIELD_SIZE_IN_BYTES);
    out.add(body(in, (int) length));
  }

  /**
   * The next {@code length} bytes of {@code in} as a retained slice. Where {@code in} is the two-part
   * buffer of {@link FrameCumulator} and the body lies in one part, the slice is of that part: a
   * slice of a composite buffer reports all its parts, and the codec opens a frame in place only
   * when it is one piece of memory.
   */
  private static ByteBuf body(ByteBuf in, int length) {
    if (length == 0) {
      return Unpooled.EMPTY_BUFFER; // nothing to slice; releasing it is a no-op
    }
    if (in instanceof CompositeByteBuf parts) {
      int at = in.readerIndex();
      int index = parts.toComponentIndex(at);
      ByteBuf part = parts.component(index);
      int offset = part.readerIndex() + at - parts.toByteIndex(index);
      if (offset + length <= part.writerIndex()) {
        ByteBuf body = part.retainedSlice(offset, length);
        in.skipBytes(length);
        return body;
      }
    }
    return in.readRetainedSlice(length);
  }
}
