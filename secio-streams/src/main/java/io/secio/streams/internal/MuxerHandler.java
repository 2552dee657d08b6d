package io.secio.streams.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.util.ReferenceCountUtil;
import java.util.function.Function;

/**
 * The connection's handler of every muxer ({@code docs/STREAMS.md} §3): makes the muxer's {@link
 * StreamMuxer} when it is added and feeds it the connection's events (bytes read, the end of a read
 * burst, writability, the input's end, a failure, the close, its own removal). A write to the
 * connection's pipeline fails: the connection carries the muxer's frames only. A muxer's public
 * handler (yamux, mplex) subclasses it, giving only how its session is made.
 *
 * <p>Stateful: one per connection. Its events run on the connection's event loop.
 */
public abstract class MuxerHandler extends ChannelDuplexHandler {
  private final String muxer;
  private final int notSentLowWater;
  private final Function<ChannelHandlerContext, StreamMuxer> newSession;
  private StreamMuxer session;

  /**
   * A handler for one connection.
   *
   * @param muxer the muxer's name, for messages
   * @param notSentLowWater the connection socket's {@code TCP_NOTSENT_LOWAT} is lowered to this when the
   *     handler is added, where the transport has it; 0 leaves the socket alone
   * @param newSession the session of the connection of a context; asked once, when the handler is added
   */
  protected MuxerHandler(String muxer, int notSentLowWater,
      Function<ChannelHandlerContext, StreamMuxer> newSession) {
    this.muxer = muxer;
    this.notSentLowWater = notSentLowWater;
    this.newSession = newSession;
  }

  @Override
  public final void handlerAdded(ChannelHandlerContext ctx) {
    if (ctx.executor() != ctx.channel().eventLoop()) {
      throw new IllegalStateException("the " + muxer + " handler must run on its channel's event loop");
    }
    NotSentLowWater.lower(ctx.channel(), notSentLowWater);
    session = newSession.apply(ctx);
    session.attach();
    if (ctx.channel().isActive()) {
      session.start();
    }
  }

  @Override
  public final void handlerRemoved(ChannelHandlerContext ctx) {
    if (session != null) { // null when handlerAdded refused the pipeline: nothing started
      session.removed();
    }
  }

  @Override
  public final void channelActive(ChannelHandlerContext ctx) {
    session.start();
    ctx.fireChannelActive();
  }

  @Override
  public final void channelInactive(ChannelHandlerContext ctx) {
    session.inactive();
    ctx.fireChannelInactive();
  }

  @Override
  public final void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof ByteBuf)) {
      ctx.fireChannelRead(msg);
      return;
    }
    try {
      session.read((ByteBuf) msg);
    } finally {
      ReferenceCountUtil.release(msg);
    }
  }

  @Override
  public final void channelReadComplete(ChannelHandlerContext ctx) {
    session.readEnded();
    ctx.fireChannelReadComplete();
  }

  @Override
  public final void channelWritabilityChanged(ChannelHandlerContext ctx) {
    session.writabilityChanged();
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public final void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof ChannelInputShutdownEvent) {
      session.inactive(); // the peer can send no more frames: the end of the session
      ctx.close();
    }
    ctx.fireUserEventTriggered(evt);
  }

  @Override
  public final void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    session.exception(cause);
  }

  @Override
  public final void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    ReferenceCountUtil.release(msg);
    promise.setFailure(new UnsupportedOperationException(
        "a connection under " + muxer + " carries frames only: write to a StreamChannel"));
  }

  @Override
  public final void close(ChannelHandlerContext ctx, ChannelPromise promise) {
    session.close(promise);
  }
}
