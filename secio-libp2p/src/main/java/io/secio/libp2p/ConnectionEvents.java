package io.secio.libp2p;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.secio.libp2p.Libp2pException.Reason;
import io.secio.netty.SecioHandshakeCompletionEvent;
import io.secio.netty.multistream.MultistreamCompletionEvent;

/**
 * Behind the muxer in the connection's pipeline: hears the upgrade's outcomes (secio's session, the
 * muxer's agreement, a failure, the close) and tells its {@link Libp2pConnection}. Passes everything
 * on.
 *
 * <p>One per connection; the connection's event loop.
 */
final class ConnectionEvents extends ChannelInboundHandlerAdapter {
  private final Libp2pConnection connection;

  ConnectionEvents(Libp2pConnection connection) {
    this.connection = connection;
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof SecioHandshakeCompletionEvent) {
      SecioHandshakeCompletionEvent secio = (SecioHandshakeCompletionEvent) evt;
      if (secio.isSuccess()) {
        connection.secured(secio.session());
      } else {
        connection.failed(secio.cause());
      }
    } else if (evt instanceof MultistreamCompletionEvent) {
      MultistreamCompletionEvent agreed = (MultistreamCompletionEvent) evt;
      if (!agreed.isSuccess()) {
        connection.failed(agreed.cause());
      } else if (connection.config().muxers().stream().anyMatch(m -> m.protocolId().equals(agreed.protocol()))) {
        connection.muxerAgreed(Muxer.of(agreed.protocol()));
      }
    }
    ctx.fireUserEventTriggered(evt);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    connection.failed(cause);
    ctx.fireExceptionCaught(cause);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    connection.failed(new Libp2pException(Reason.CONNECTION_CLOSED, "the connection closed"));
    ctx.fireChannelInactive();
  }
}
