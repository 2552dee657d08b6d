package io.secio.libp2p;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.secio.libp2p.Libp2pException.Reason;
import io.secio.netty.NegotiationCompletionEvent;
import io.secio.netty.SecioHandshakeCompletionEvent;
import io.secio.netty.stage.StageSink;

/**
 * The session's handler, behind the muxer in the connection's pipeline: the stack's last. It hears
 * the upgrade's outcomes (secio's session, the muxer's agreement, a failure, the close) and tells its
 * {@link Libp2pSession}; every event passes on to the application's handlers, and a failure passes on
 * to them or, when the application added none, ends here ({@link StageSink#passOn}).
 *
 * <p>One per connection; the connection's event loop.
 */
final class SessionEvents extends ChannelInboundHandlerAdapter {
  private final Libp2pSession session;

  SessionEvents(Libp2pSession session) {
    this.session = session;
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof SecioHandshakeCompletionEvent secio) {
      if (secio.isSuccess()) {
        session.secured(secio.session());
      } else {
        session.failed(secio.cause());
      }
    } else if (evt instanceof NegotiationCompletionEvent agreed) {
      if (!agreed.isSuccess()) {
        session.failed(agreed.cause());
      } else if (session.config().muxers().stream().anyMatch(m -> m.protocolId().equals(agreed.protocol().name()))) {
        session.muxerAgreed(Muxer.of(agreed.protocol().name()));
      }
    }
    ctx.fireUserEventTriggered(evt);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    session.failed(cause);
    StageSink.passOn(ctx, cause);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    session.failed(new Libp2pException(Reason.CONNECTION_CLOSED, "the connection closed"));
    ctx.fireChannelInactive();
  }
}
