package io.secio.websocket;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.websocketx.WebSocketClientHandshaker13;
import io.netty.handler.codec.http.websocketx.WebSocketHandshakeException;
import io.netty.handler.codec.http.websocketx.WebSocketVersion;
import io.netty.util.ReferenceCountUtil;
import io.secio.websocket.WebSocketException.Reason;
import java.net.URI;

/**
 * The dialer's handshake (RFC 6455 §4.1): sends the upgrade request once the channel is active,
 * checks the response with Netty's version-13 handshaker (status 101, {@code Upgrade}, {@code
 * Connection}, {@code Sec-WebSocket-Accept}), accepts no subprotocol and no extension, then gives way
 * to the frames. Not sharable.
 */
final class ClientHandshake extends UpgradeStage {
  private final Handshaker handshaker;
  private boolean accepted;

  ClientHandshake(WebSocketConfig config, URI uri) {
    super(config, WebSocket.HANDSHAKE);
    this.handshaker = new Handshaker(uri, config.maxFramePayloadLength());
  }

  @Override
  void onStart(ChannelHandlerContext ctx) {
    ctx.writeAndFlush(handshaker.request()).addListener(f -> {
      if (!f.isSuccess()) {
        fail(new WebSocketException(Reason.CLOSED, "the upgrade request was not written: " + f.cause(), f.cause()));
      }
    });
  }

  @Override
  void onRead(ChannelHandlerContext ctx, Object msg) throws WebSocketException {
    try {
      if (msg instanceof HttpObject http && http.decoderResult().isFailure()) {
        throw unreadable("response", http.decoderResult().cause());
      }
      if (msg instanceof HttpResponse response) {
        check(response);
        accepted = true;
      }
    } finally {
      ReferenceCountUtil.release(msg);
    }
    // A 101 has no body: its end follows its head at once.
    if (accepted && msg instanceof LastHttpContent) {
      FrameCodec.takeOver(this, ctx, true);
    }
  }

  private void check(HttpResponse response) throws WebSocketException {
    try {
      handshaker.check(new DefaultFullHttpResponse(response.protocolVersion(), response.status(),
          Unpooled.EMPTY_BUFFER, response.headers(), EmptyHttpHeaders.INSTANCE));
    } catch (WebSocketHandshakeException e) {
      throw new WebSocketException(Reason.HANDSHAKE_REFUSED, e.getMessage(), e);
    }
    if (response.headers().contains(HttpHeaderNames.SEC_WEBSOCKET_PROTOCOL)
        || response.headers().contains(HttpHeaderNames.SEC_WEBSOCKET_EXTENSIONS)) {
      throw new WebSocketException(Reason.HANDSHAKE_REFUSED,
          "the server chose a subprotocol or an extension, and none was offered");
    }
  }

  @Override
  WebSocketException timeoutFailure() {
    return new WebSocketException(Reason.HANDSHAKE_TIMEOUT,
        "no upgrade response within " + config().handshakeTimeout());
  }

  /** Netty's handshaker for its request and its check of the response; the pipeline is ours. */
  private static final class Handshaker extends WebSocketClientHandshaker13 {
    Handshaker(URI uri, int maxFramePayloadLength) {
      super(uri, WebSocketVersion.V13, null, false, null, maxFramePayloadLength, true, false, -1);
    }

    FullHttpRequest request() {
      return newHandshakeRequest();
    }

    void check(DefaultFullHttpResponse response) {
      verify(response);
    }
  }
}
