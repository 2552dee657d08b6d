package io.secio.websocket;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundInvoker;
import io.netty.util.ReferenceCountUtil;
import io.secio.websocket.WebSocketException.Reason;

/**
 * One listener port for TCP and WebSocket, as a CKB node's ({@code reuse_tcp_with_ws}): the first
 * {@value #SNIFFED_BYTES} bytes decide. An HTTP {@code GET } puts the WebSocket server handshake in
 * this handler's place; a big-endian length prefix under 16 MiB (a zero first byte, not all zero),
 * which is how secio's Propose starts, leaves the connection to the handlers after it as plain TCP;
 * anything else is {@link Reason#NOT_RECOGNISED}. It waits for those bytes no longer than the
 * handshake timeout, and holds no more than what the reads that brought them carried. Not sharable.
 */
final class TransportSniffer extends UpgradeStage {
  /** How many bytes decide. */
  static final int SNIFFED_BYTES = 4;
  /** {@code "GET "} as a big-endian int. */
  private static final int GET = 0x47455420;

  private final String path;
  private ByteBuf held;

  TransportSniffer(WebSocketConfig config, String path) {
    super(config, null);
    this.path = path;
  }

  @Override
  void onStart(ChannelHandlerContext ctx) {
    // The dialer speaks first.
  }

  @Override
  void onRead(ChannelHandlerContext ctx, Object msg) throws WebSocketException {
    if (!(msg instanceof ByteBuf bytes)) {
      ReferenceCountUtil.release(msg);
      throw new WebSocketException(Reason.NOT_RECOGNISED, "not bytes: " + msg.getClass().getSimpleName());
    }
    held = held == null ? bytes : Unpooled.wrappedBuffer(held, bytes);
    if (held.readableBytes() < SNIFFED_BYTES) {
      return;
    }
    int first = held.getInt(held.readerIndex());
    ChannelInboundInvoker before = before();
    ByteBuf rest = held;
    held = null;
    Runnable deliver = () -> {
      before.fireChannelRead(rest);
      before.fireChannelReadComplete();
    };
    if (first == GET) {
      ctx.pipeline().addBefore(ctx.name(), WebSocket.HTTP_CODEC_NAME, WebSocket.httpServerCodec(config()));
      succeed(new ServerHandshake(config(), path), deliver);
    } else if (first >>> 24 == 0 && first != 0) {
      succeed(null, deliver);
    } else {
      rest.release();
      throw new WebSocketException(Reason.NOT_RECOGNISED,
          "the first bytes are neither an HTTP GET nor a length prefix");
    }
  }

  @Override
  WebSocketException timeoutFailure() {
    return new WebSocketException(Reason.HANDSHAKE_TIMEOUT, "fewer than " + SNIFFED_BYTES + " bytes within "
        + config().handshakeTimeout());
  }

  @Override
  void onFailure(ChannelHandlerContext ctx, WebSocketException cause) {
    if (held != null) {
      held.release();
      held = null;
    }
  }
}
