package io.secio.streams.yamux;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.util.ReferenceCountUtil;
import java.util.Objects;

/**
 * A yamux session on a connection, as the last handler of its pipeline ({@code docs/STREAMS.md}):
 * every stream is a {@link io.secio.streams.StreamChannel}; streams the peer opens get {@code
 * inboundStreamHandler} (typically a {@code ChannelInitializer}), and streams this side opens come
 * from {@link io.secio.streams.StreamChannelBootstrap}. The dialer is the yamux client (odd stream
 * ids), the listener the server (even ids).
 *
 * <pre>{@code
 * ch.pipeline().addLast(YamuxHandler.server(YamuxConfig.tentacle(), new ChannelInitializer<Channel>() {
 *   protected void initChannel(Channel stream) {
 *     stream.pipeline().addLast(new EchoHandler());
 *   }
 * }));
 * }</pre>
 *
 * <p>The connection carries yamux frames only: a write of anything to the connection's pipeline
 * fails. Closing the connection sends GoAway 0 and closes once it is written (at most {@link
 * YamuxConfig#writeTimeout()} later). The peer's GoAway 0 is answered with GoAway 0 and a close. A
 * frame that breaks the protocol ends the session with GoAway 1 (2 when the peer floods answers it
 * does not read) and a close, after every open stream and this pipeline got a {@link YamuxException}.
 *
 * <p>Stateful: one per connection. Its events run on the connection's event loop.
 */
public final class YamuxHandler extends ChannelDuplexHandler {
  private final YamuxConfig config;
  private final boolean client;
  private final ChannelHandler inboundStreamHandler;
  private YamuxSession session;

  private YamuxHandler(YamuxConfig config, boolean client, ChannelHandler inboundStreamHandler) {
    this.config = Objects.requireNonNull(config, "config");
    this.client = client;
    this.inboundStreamHandler = inboundStreamHandler;
  }

  /**
   * The dialer's side (yamux client: odd stream ids).
   *
   * @param config the session's limits and timers
   * @param inboundStreamHandler added to each stream the peer opens; {@code @Sharable}, or {@code
   *     null} to refuse every stream the peer opens (each gets RST)
   * @return a handler for one connection
   */
  public static YamuxHandler client(YamuxConfig config, ChannelHandler inboundStreamHandler) {
    return new YamuxHandler(config, true, inboundStreamHandler);
  }

  /**
   * The listener's side (yamux server: even stream ids).
   *
   * @param config the session's limits and timers
   * @param inboundStreamHandler added to each stream the peer opens; {@code @Sharable}, or {@code
   *     null} to refuse every stream the peer opens (each gets RST)
   * @return a handler for one connection
   */
  public static YamuxHandler server(YamuxConfig config, ChannelHandler inboundStreamHandler) {
    return new YamuxHandler(config, false, inboundStreamHandler);
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    if (ctx.executor() != ctx.channel().eventLoop()) {
      throw new IllegalStateException("a YamuxHandler must run on its channel's event loop");
    }
    session = new YamuxSession(ctx, config, client, inboundStreamHandler);
    session.attach();
    if (ctx.channel().isActive()) {
      session.start();
    }
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    session.removed();
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    session.start();
    ctx.fireChannelActive();
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
      session.inactive(); // the peer can send no more frames: as good as closed
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
        "a connection under yamux carries frames only: write to a StreamChannel"));
  }

  @Override
  public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
    session.close(promise);
  }
}
