package io.secio.websocket;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.PromiseCombiner;
import io.secio.websocket.WebSocketException.Reason;

/**
 * A WebSocket connection as a byte stream, once the handshake is done: the payload of each binary
 * frame (and of its continuation frames) is passed on as a {@link ByteBuf}, each {@code ByteBuf}
 * written goes out as binary frames of at most {@link WebSocketConfig#writeFramePayloadLength()}
 * bytes. A frame boundary means nothing.
 *
 * <ul>
 *   <li>a ping is answered with a pong of the same payload while the channel is writable (RFC 6455
 *       lets an endpoint answer only the latest ping, so a ping flood queues nothing); a pong is
 *       dropped;
 *   <li>a close frame ends the connection: it is answered with a close frame of the same status and
 *       the channel is closed; {@code close()} sends a close frame (1000) before the channel closes;
 *   <li>a text frame, or a frame the decoder refuses, is a {@link WebSocketException}, fired once
 *       after the close frame saying why, and the channel is closed; nothing after it is delivered.
 * </ul>
 *
 * <p>Not sharable; every method runs on the channel's event loop.
 */
final class BinaryStream extends ChannelDuplexHandler {
  private final int writeFramePayloadLength;
  private boolean closeSent;
  private boolean failed;

  BinaryStream(WebSocketConfig config) {
    this.writeFramePayloadLength = config.writeFramePayloadLength();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (failed) {
      ReferenceCountUtil.release(msg);
    } else if (msg instanceof BinaryWebSocketFrame || msg instanceof ContinuationWebSocketFrame) {
      // The decoder lets a continuation through only after a binary frame: a text message fails at once.
      ByteBuf payload = ((WebSocketFrame) msg).content();
      if (payload.isReadable()) {
        ctx.fireChannelRead(payload);
      } else {
        payload.release();
      }
    } else if (msg instanceof PingWebSocketFrame ping) {
      if (ctx.channel().isWritable() && !closeSent) {
        ctx.writeAndFlush(new PongWebSocketFrame(ping.content()));
      } else {
        ping.release();
      }
    } else if (msg instanceof CloseWebSocketFrame close) {
      int status = close.statusCode();
      close.release();
      closeWith(ctx, status > 0 ? WebSocketCloseStatus.valueOf(status) : WebSocketCloseStatus.NORMAL_CLOSURE);
    } else if (msg instanceof PongWebSocketFrame pong) {
      pong.release();
    } else if (msg instanceof TextWebSocketFrame text) {
      text.release();
      fail(ctx, WebSocketCloseStatus.INVALID_MESSAGE_TYPE,
          new WebSocketException(Reason.TEXT_FRAME, "a text frame: the byte stream is binary"));
    } else {
      ctx.fireChannelRead(msg);
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (cause instanceof CorruptedWebSocketFrameException corrupt) {
      if (failed) {
        // The decoder went on with the rest of a read this side had failed on: one failure is told.
        return;
      }
      // The decoder has sent its close frame already.
      closeSent = true;
      boolean tooLong = corrupt.closeStatus() != null
          && corrupt.closeStatus().code() == WebSocketCloseStatus.MESSAGE_TOO_BIG.code();
      fail(ctx, null, new WebSocketException(tooLong ? Reason.FRAME_TOO_LONG : Reason.MALFORMED_FRAME,
          corrupt.getMessage(), corrupt));
    } else {
      ctx.fireExceptionCaught(cause);
    }
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    if (!(msg instanceof ByteBuf bytes) || !bytes.isReadable()) {
      // An empty buffer passes as it is: its promise completes after every write before it.
      ctx.write(msg, promise);
    } else if (bytes.readableBytes() <= writeFramePayloadLength) {
      ctx.write(new BinaryWebSocketFrame(bytes), promise);
    } else {
      PromiseCombiner frames = new PromiseCombiner(ctx.executor());
      try {
        while (bytes.isReadable()) {
          int n = Math.min(writeFramePayloadLength, bytes.readableBytes());
          frames.add(ctx.write(new BinaryWebSocketFrame(bytes.readRetainedSlice(n))));
        }
      } finally {
        bytes.release();
      }
      frames.finish(promise);
    }
  }

  @Override
  public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
    if (!closeSent && ctx.channel().isActive()) {
      closeSent = true;
      ctx.writeAndFlush(new CloseWebSocketFrame(WebSocketCloseStatus.NORMAL_CLOSURE));
    }
    ctx.close(promise);
  }

  /** Answers the peer's close frame and closes. */
  private void closeWith(ChannelHandlerContext ctx, WebSocketCloseStatus status) {
    if (!closeSent) {
      closeSent = true;
      ctx.writeAndFlush(new CloseWebSocketFrame(status));
    }
    ctx.close();
  }

  private void fail(ChannelHandlerContext ctx, WebSocketCloseStatus status, WebSocketException cause) {
    failed = true;
    if (status != null && !closeSent) {
      closeSent = true;
      ctx.writeAndFlush(new CloseWebSocketFrame(status));
    }
    ctx.fireExceptionCaught(cause);
    ctx.close();
  }
}
