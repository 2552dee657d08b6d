package io.secio.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.DecoderException;
import io.secio.frame.Frames;
import io.secio.protocol.SecioException;
import java.util.List;

/**
 * Splits the inbound byte stream into secio frames (the format, its diagram and the length check are
 * {@link Frames}'s) and emits each payload, without its length prefix, as a retained slice that the
 * next handler must release.
 *
 * <p>A declared length over {@code maxFrameLength} (inclusive limit) fails from the header alone,
 * before any of the body is buffered, with a {@link DecoderException} whose cause is a {@link
 * SecioException} of reason {@link SecioException.Reason#FRAME_TOO_LONG}; every byte after it is
 * discarded. The declared length is never allocated up front: the cumulation grows with the bytes
 * actually received.
 *
 * <p>A first header over the limit that is really another protocol's first bytes (text such as
 * HTTP's, TLS, multistream-select) is reported as {@link SecioException.Reason#NOT_SECIO}, with
 * those bytes escaped, rather than as a message too long.
 *
 * <p>Built by {@link Secio} with a handshake limit, it applies that limit instead (reason {@link
 * SecioException.Reason#HANDSHAKE_MESSAGE_TOO_LONG}) until the handshake completes: a hostile
 * handshake then holds at most that many bytes however long a frame it declares.
 *
 * <p>Stateful, so never shared: one instance per channel, used on its event loop only.
 */
public final class SecioFrameDecoder extends ByteToMessageDecoder {
  private final int maxFrameLength;
  private int limit;
  private boolean handshaking;
  private boolean failed;
  /** No frame has come yet: a first header over the limit may be another protocol's first bytes. */
  private boolean firstFrame = true;

  /** A decoder that accepts payloads of up to {@code maxFrameLength} bytes, inclusive. */
  SecioFrameDecoder(int maxFrameLength) {
    this(maxFrameLength, maxFrameLength);
    handshaking = false;
  }

  /**
   * A decoder that accepts payloads of up to {@code maxHandshakeMessageLength} bytes until {@link
   * #handshakeComplete()}, then up to {@code maxFrameLength}, both inclusive.
   */
  SecioFrameDecoder(int maxFrameLength, int maxHandshakeMessageLength) {
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
    NettyIo.CURRENT.guardEpollInterest(ctx);
  }

  @Override
  public void channelRegistered(ChannelHandlerContext ctx) throws Exception {
    // A channel registered again has a new registration: guard that one too.
    NettyIo.CURRENT.guardEpollInterest(ctx);
    super.channelRegistered(ctx);
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    // A dialling channel is guarded once connected (EpollInterestGuard.install says why not before).
    NettyIo.CURRENT.guardEpollInterest(ctx);
    super.channelActive(ctx);
  }

  /** The largest payload accepted after the handshake, in bytes. */
  public int maxFrameLength() {
    return maxFrameLength;
  }

  /** The peer's nonce echo is verified: from the next frame on, the frame limit applies. */
  void handshakeComplete() {
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
    if (in.readableBytes() < Frames.HEADER_SIZE_IN_BYTES) {
      return;
    }
    int length;
    try {
      length = Frames.checkedLength(declaredLength(in, in.readerIndex()), limit,
          handshaking ? SecioException.Reason.HANDSHAKE_MESSAGE_TOO_LONG
              : SecioException.Reason.FRAME_TOO_LONG);
    } catch (SecioException e) {
      failed = true;
      SecioException reported = firstFrame ? OtherProtocols.recognised(in).orElse(e) : e;
      in.skipBytes(in.readableBytes());
      throw new DecoderException(reported);
    }
    if (in.readableBytes() - Frames.HEADER_SIZE_IN_BYTES < length) {
      return;
    }
    firstFrame = false;
    in.skipBytes(Frames.HEADER_SIZE_IN_BYTES);
    out.add(body(in, length));
  }

  /** The payload length declared by the header at {@code index} of {@code in} ({@link Frames}). */
  static long declaredLength(ByteBuf in, int index) {
    return Frames.declaredLength(in.nioBuffer(index, Frames.HEADER_SIZE_IN_BYTES));
  }

  /**
   * A new frame buffer from {@code alloc} with room for a payload of {@code payloadLength} bytes,
   * its header already written: the payload goes right after the writer index.
   */
  static ByteBuf newFrame(ByteBufAllocator alloc, int payloadLength) {
    ByteBuf frame = alloc.ioBuffer(Frames.HEADER_SIZE_IN_BYTES + payloadLength);
    Frames.putHeader(frame.nioBuffer(frame.writerIndex(), Frames.HEADER_SIZE_IN_BYTES), payloadLength);
    return frame.writerIndex(frame.writerIndex() + Frames.HEADER_SIZE_IN_BYTES);
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
