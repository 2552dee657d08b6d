package io.secio.streams.mplex;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.util.ReferenceCountUtil;
import java.util.Objects;

/**
 * An mplex session ({@code /mplex/6.7.0}, {@code docs/STREAMS.md} §9) on a connection, as the last
 * handler of its pipeline: every stream is a {@link io.secio.streams.StreamChannel}; streams the peer
 * opens get {@code inboundStreamHandler} (typically a {@code ChannelInitializer}), and streams this
 * side opens come from {@link io.secio.streams.StreamChannelBootstrap}. mplex is symmetric: dialer
 * and listener run the same handler.
 *
 * <pre>{@code
 * ch.pipeline().addLast(MplexHandler.create(MplexConfig.defaults(), new ChannelInitializer<Channel>() {
 *   protected void initChannel(Channel stream) {
 *     stream.pipeline().addLast(new EchoHandler());
 *   }
 * }));
 * }</pre>
 *
 * <p>mplex has no flow control: a stream whose reader leaves more than {@link
 * MplexConfig#maxStreamBuffer()} bytes unread is reset (its pipeline gets {@link MplexException}
 * {@code STREAM_BUFFER_EXCEEDED} first), and the connection's memory stays bounded whatever the peer
 * sends. A frame that breaks the protocol closes the connection after every open stream and this
 * pipeline got an {@link MplexException}. mplex has no goodbye: closing the connection is the end,
 * and a stream whose peer had closed its side is read to its end, any other gets {@code
 * CONNECTION_CLOSED}. The connection carries mplex frames only: a write to its pipeline fails.
 *
 * <p>Stateful: one per connection. Its events run on the connection's event loop.
 */
public final class MplexHandler extends ChannelDuplexHandler {
  private final MplexConfig config;
  private final ChannelHandler inboundStreamHandler;
  private MplexSession session;

  private MplexHandler(MplexConfig config, ChannelHandler inboundStreamHandler) {
    this.config = Objects.requireNonNull(config, "config");
    this.inboundStreamHandler = inboundStreamHandler;
  }

  /**
   * An mplex session for one connection, either side.
   *
   * @param config the session's bounds
   * @param inboundStreamHandler added to each stream the peer opens; {@code @Sharable}, or {@code
   *     null} to refuse every stream the peer opens (each gets a reset)
   * @return a handler for one connection
   */
  public static MplexHandler create(MplexConfig config, ChannelHandler inboundStreamHandler) {
    return new MplexHandler(config, inboundStreamHandler);
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    if (ctx.executor() != ctx.channel().eventLoop()) {
      throw new IllegalStateException("an MplexHandler must run on its channel's event loop");
    }
    session = new MplexSession(ctx, config, inboundStreamHandler);
    session.attach();
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    session.removed();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    session.inactive();
    ctx.fireChannelInactive();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
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
  public void channelReadComplete(ChannelHandlerContext ctx) {
    session.readEnded();
    ctx.fireChannelReadComplete();
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    session.writabilityChanged();
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof ChannelInputShutdownEvent) {
      session.inactive(); // no more frames can come: the end of the session
      ctx.close();
    }
    ctx.fireUserEventTriggered(evt);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    session.exception(cause);
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    ReferenceCountUtil.release(msg);
    promise.setFailure(new UnsupportedOperationException(
        "a connection under mplex carries frames only: write to a StreamChannel"));
  }

  @Override
  public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
    session.close(promise);
  }
}
