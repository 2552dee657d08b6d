package io.secio.tentacle;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.util.concurrent.Promise;
import io.secio.PeerId;
import io.secio.netty.SecioHandshakeCompletionEvent;
import io.secio.streams.yamux.YamuxHandler;
import io.secio.tentacle.TentacleException.Reason;

/**
 * Starts a tentacle session on a connection: after secio's handshake (or at once in tentacle's
 * no-secio mode) it refuses a remote key that already has a session ({@link ConnectedPeers}), and
 * otherwise puts yamux in its own place, every stream the peer opens getting protocol-select, and
 * completes the session's future. Not sharable; runs on the connection's event loop.
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
    ctx.fireChannelActive();
    if (!secured) {
      begin(ctx, null);
    }
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof SecioHandshakeCompletionEvent handshake) {
      if (handshake.isSuccess()) {
        begin(ctx, handshake.session().remotePeerId());
      } else {
        // secio's one failure path closes the connection.
        promise.tryFailure(handshake.cause());
      }
      return;
    }
    ctx.fireUserEventTriggered(evt);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    promise.tryFailure(new TentacleException(Reason.CLOSED, "the connection closed before the session started"));
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    // secio's failures reach here after its completion event; the connection is closing.
    promise.tryFailure(cause);
  }

  private void begin(ChannelHandlerContext ctx, PeerId remote) {
    if (promise.isDone()) {
      return;
    }
    Channel connection = ctx.channel();
    if (remote != null) {
      ConnectedPeers peers = config.connectedPeers();
      if (!peers.tryAdd(remote)) {
        promise.tryFailure(new TentacleException(Reason.DUPLICATE_SESSION, remote + " has a session already"));
        ctx.close();
        return;
      }
      connection.closeFuture().addListener(f -> peers.remove(remote));
    }
    TentacleSession session = new TentacleSession(config, connection, remote);
    ChannelHandler inbound = new ChannelInitializer<Channel>() {
      @Override
      protected void initChannel(Channel stream) {
        stream.pipeline().addLast(ProtocolSelectHandler.acceptor(session), ProtocolSelectHandler.UNSELECTED_SINK);
      }
    };
    ctx.pipeline().replace(this, Tentacle.YAMUX_NAME, client
        ? YamuxHandler.client(config.yamux(), inbound)
        : YamuxHandler.server(config.yamux(), inbound));
    session.start();
    promise.trySuccess(session);
  }
}
