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
 * <p>Built with a handshake limit it applies that limit instead (reason {@link
 * SecioException.Reason#HANDSHAKE_MESSAGE_TOO_LONG}) until {@link #handshakeComplete()}: a hostile
 * handshake then holds at most that many bytes however long a frame it declares.
 *
 * <p>Stateful, so never shared: one instance per channel, used on its event loop only.
 */
public final class SecioFrameDecoder extends ByteToMessageDecoder {
  /** Size of the length prefix in front of every frame. */
  public static final int LENGTH_FIELD_SIZE_IN_BYTES = 4;

  private final int maxFrameLength;
  private int limit;
  private boolean handshaking;
  private boolean failed;

  /** A decoder that accepts payloads of up to {@code maxFrameLength} bytes, inclusive. */
  public SecioFrameDecoder(int maxFrameLength) {
    this(maxFrameLength, maxFrameLength);
    handshaking = false;
  }

  /**
   * A decoder that accepts payloads of up to {@code maxHandshakeMessageLength} bytes until {@link
   * #handshakeComplete()}, then up to {@code maxFrameLength}, both inclusive.
   */
  public SecioFrameDecoder(int maxFrameLength, int maxHandshakeMessageLength) {
    if (maxFrameLength < 0 || maxHandshakeMessageLength < 0) {
      throw new IllegalArgumentException("frame limits must not be negative: " + maxFrameLength
          + ", " + maxHandshakeMessageLength);
    }
    this.maxFrameLength = maxFrameLength;
    this.limit = Math.min(maxFrameLength, maxHandshakeMessageLength);
    this.handshaking = true;
    // Frames rarely end where a read ends: copy only the frame that straddles two reads.
    setCumulator(new FrameCumulator(maxFrameLength));
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    NettyIo.CURRENT.guardEpollInterest(ctx.channel());
  }

  @Override
  public void channelRegistered(ChannelHandlerContext ctx) throws Exception {
    // A channel registered again has a new registration: guard that one too.
    NettyIo.CURRENT.guardEpollInterest(ctx.channel());
    super.channelRegistered(ctx);
  }

  /** The largest payload accepted after the handshake, in bytes. */
  public int maxFrameLength() {
    return maxFrameLength;
  }

  /** The peer's nonce echo is verified: from the next frame on, the frame limit applies. */
  public void handshakeComplete() {
    handshaking = false;
    limit = maxFrameLength;
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
    if (length > limit) {
      failed = true;
      in.skipBytes(in.readableBytes());
      throw new DecoderException(new SecioException(
          handshaking ? SecioException.Reason.HANDSHAKE_MESSAGE_TOO_LONG
              : SecioException.Reason.FRAME_TOO_LONG,
          "declared " + length + " bytes, limit " + limit));
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
   * slice of a composite buffer reports all its parts, and a crypto provider reads a frame
   * without another copy only when it is one piece of memory.
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
