package io.secio.tentacle;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.Promise;
import io.secio.PeerId;
import io.secio.SecioSession;
import io.secio.netty.SecioHandshakeCompletionEvent;
import io.secio.netty.negotiation.NegotiatedStreams;
import io.secio.netty.stage.StageSink;
import io.secio.streams.yamux.YamuxHandler;
import io.secio.tentacle.TentacleException.Reason;

/**
 * The session's handler on a connection, the last of the stack. It starts the session: after secio's
 * handshake (or at once in tentacle's no-secio mode) it refuses a remote key that already has a
 * session ({@link ConnectedPeers}), and otherwise puts yamux in front of itself, every stream the peer
 * opens getting protocol-select, and completes the session's future. It then stays behind the muxer
 * and hears the connection's end: every event passes on to the application's handlers, and a failure
 * (secio's, the muxer's, the session's own) fails the future if it is not done and passes on, or ends
 * here when the application added no handler ({@link StageSink#passOn}). Not sharable; runs on the
 * connection's event loop.
 */
final class SessionHandler extends ChannelInboundHandlerAdapter {
  private final TentacleConfig config;
  private final boolean client;
  private final boolean secured;
  private Promise<TentacleSession> promise;

  SessionHandler(TentacleConfig config, boolean client, boolean secured) {
    this.config = config;
    this.client = client;
    this.secured = secured;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    promise = ctx.executor().newPromise();
    ctx.channel().attr(Tentacle.SESSION).set(promise);
    if (!secured && ctx.channel().isActive()) {
      begin(ctx, null);
    }
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    if (!secured) {
      begin(ctx, null);
    }
    ctx.fireChannelActive();
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (!(evt instanceof SecioHandshakeCompletionEvent handshake)) {
      ctx.fireUserEventTriggered(evt);
      return;
    }
    if (!handshake.isSuccess()) {
      // secio's one failure path follows with exceptionCaught and the close.
      promise.tryFailure(handshake.cause());
      ctx.fireUserEventTriggered(evt);
      return;
    }
    TentacleException refused = begin(ctx, handshake.session());
    ctx.fireUserEventTriggered(evt);
    if (refused != null) {
      StageSink.passOn(ctx, refused);
      ctx.close();
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    promise.tryFailure(new TentacleException(Reason.CLOSED, "the connection closed before the session started"));
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    promise.tryFailure(cause);
    StageSink.passOn(ctx, cause);
  }

  /** Starts the session; the refusal of a duplicate key, or null. */
  private TentacleException begin(ChannelHandlerContext ctx, SecioSession secio) {
    if (promise.isDone()) {
      return null;
    }
    Channel connection = ctx.channel();
    if (secio != null) {
      PeerId remote = secio.remotePeerId();
      ConnectedPeers peers = config.connectedPeers();
      if (!peers.tryAdd(remote)) {
        TentacleException refused = new TentacleException(Reason.DUPLICATE_SESSION, remote + " has a session already");
        promise.tryFailure(refused);
        return refused;
      }
      connection.closeFuture().addListener(f -> peers.remove(remote));
    }
    TentacleSession session = new TentacleSession(config, connection, secio);
    ChannelHandler inbound = NegotiatedStreams.accepting(() -> ProtocolSelectHandler.acceptor(session));
    ctx.pipeline().addBefore(ctx.name(), Tentacle.YAMUX_NAME, client
        ? YamuxHandler.client(config.yamux(), inbound)
        : YamuxHandler.server(config.yamux(), inbound));
    session.start();
    promise.trySuccess(session);
    return null;
  }
}
