package io.secio.tentacle;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.CombinedChannelDuplexHandler;

/**
 * A protocol stream's message codec ({@link MessageDecoder}, {@link MessageEncoder}) as one handler,
 * which takes protocol-select's place once a version is chosen: the writes protocol-select held go
 * out through it as messages. On the listener's side it brings the protocol's handler behind itself.
 * Not sharable; the stream's event loop.
 */
final class MessageCodec extends CombinedChannelDuplexHandler<MessageDecoder, MessageEncoder> {
  private final ChannelHandler followedBy;

  /**
   * @param maxMessageLength the protocol's limit, both ways
   * @param followedBy the handler to add behind the codec, or null
   */
  MessageCodec(int maxMessageLength, ChannelHandler followedBy) {
    super(new MessageDecoder(maxMessageLength), new MessageEncoder(maxMessageLength));
    this.followedBy = followedBy;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
    super.handlerAdded(ctx);
    if (followedBy != null) {
      ctx.pipeline().addAfter(ctx.name(), null, followedBy);
    }
  }
}
