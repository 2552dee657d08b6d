package io.secio.tentacle;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.codec.MessageToMessageEncoder;
import java.util.List;

/**
 * tentacle's {@code LengthDelimitedCodec} outbound: each {@code ByteBuf} written is one message,
 * prefixed with its length (u32 BE) into one buffer without copying the body, so that it goes out
 * as one yamux Data frame while the credit allows, as tentacle's do. A message over the protocol's
 * limit fails its write. Stateless.
 */
@ChannelHandler.Sharable
final class MessageEncoder extends MessageToMessageEncoder<ByteBuf> {
  private final int maxMessageLength;

  MessageEncoder(int maxMessageLength) {
    super(ByteBuf.class);
    this.maxMessageLength = maxMessageLength;
  }

  @Override
  protected void encode(ChannelHandlerContext ctx, ByteBuf msg, List<Object> out) {
    int length = msg.readableBytes();
    if (length > maxMessageLength) {
      throw new EncoderException(new TentacleException(TentacleException.Reason.MESSAGE_TOO_LONG,
          "a message of " + length + " bytes written, over the limit of " + maxMessageLength));
    }
    ByteBuf prefix = ctx.alloc().buffer(MessageDecoder.PREFIX_SIZE_IN_BYTES).writeInt(length);
    CompositeByteBuf message = ctx.alloc().compositeBuffer(2);
    message.addComponents(true, prefix, msg.retain());
    out.add(message);
  }
}
