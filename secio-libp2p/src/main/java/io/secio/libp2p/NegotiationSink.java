package io.secio.libp2p;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.Future;
import io.secio.netty.multistream.Multistream;

/**
 * Last in every stream's pipeline: until the stream's protocol is agreed, the failure of its
 * multistream-select (the peer's {@code na}, a close or a bad message) has closed the stream already
 * and ends here, instead of at Netty's tail with a warning and a stack trace in the application's log;
 * once agreed, exceptions pass on as the protocol's handlers leave them.
 */
@ChannelHandler.Sharable
final class NegotiationSink extends ChannelInboundHandlerAdapter {
  static final NegotiationSink INSTANCE = new NegotiationSink();

  private NegotiationSink() {}

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    Future<String> negotiation = Multistream.negotiationFuture(ctx.channel());
    if (negotiation.isSuccess()) {
      ctx.fireExceptionCaught(cause);
    } else {
      ctx.close();
    }
  }
}
