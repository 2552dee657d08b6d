package io.secio.tentacle;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.secio.streams.StreamChannel;
import io.secio.tentacle.TentacleException.Reason;
import java.util.List;

/**
 * tentacle's {@code LengthDelimitedCodec} inbound: {@code | length (u32 BE) | length bytes |} per
 * message, each passed on as one {@code ByteBuf} without its prefix. A length over the protocol's
 * limit (checked from the prefix, before any of the body is held) resets the stream, then fires {@code
 * exceptionCaught} with {@link Reason#MESSAGE_TOO_LONG}; nothing after it is passed on. Not sharable.
 */
final class MessageDecoder extends ByteToMessageDecoder {
  static final int PREFIX_SIZE_IN_BYTES = 4;

  private final int maxMessageLength;
  private boolean failed;

  MessageDecoder(int maxMessageLength) {
    this.maxMessageLength = maxMessageLength;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (failed) {
      in.skipBytes(in.readableBytes());
      return;
    }
    if (in.readableBytes() < PREFIX_SIZE_IN_BYTES) {
      return;
    }
    long length = in.getUnsignedInt(in.readerIndex());
    if (length > maxMessageLength) {
      failed = true;
      in.skipBytes(in.readableBytes());
      // The reset first: a handler that closes the stream on hearing of it must not turn the
      // refusal into a clean end (a FIN).
      ((StreamChannel) ctx.channel()).reset();
      ctx.fireExceptionCaught(new TentacleException(Reason.MESSAGE_TOO_LONG,
          "a message of " + length + " bytes, over the limit of " + maxMessageLength));
      return;
    }
    if (in.readableBytes() < PREFIX_SIZE_IN_BYTES + length) {
      return;
    }
    in.skipBytes(PREFIX_SIZE_IN_BYTES);
    out.add(in.readRetainedSlice((int) length));
  }
}
