package io.secio.websocket;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.handler.codec.http.websocketx.WebSocketHandshakeException;
import io.netty.handler.codec.http.websocketx.WebSocketServerHandshaker13;
import io.netty.handler.codec.http.websocketx.WebSocketVersion;
import io.netty.util.ReferenceCountUtil;
import io.secio.websocket.WebSocketException.Reason;

/**
 * The listener's handshake (RFC 6455 §4.2): takes a version-13 upgrade {@code GET} of its path with
 * no body, answers {@code 101} through Netty's version-13 handshaker (no subprotocol, no extension:
 * a browser asks for none), then gives way to the frames. Anything else is answered with a status
 * (400, 404 wrong path, 414/431 too long, 426 another version, each with {@code Connection: close})
 * and fails the handshake. Not sharable.
 */
final class ServerHandshake extends UpgradeStage {
  private final String path;
  private final Handshaker handshaker;
  /** The 101 to send once the request has ended. */
  private FullHttpResponse switching;
  /** The status that answers the failure, if the failure is the request's. */
  private HttpResponseStatus refusal;

  ServerHandshake(WebSocketConfig config, String path) {
    super(config, WebSocket.HANDSHAKE);
    this.path = path;
    this.handshaker = new Handshaker(path);
  }

  @Override
  void onStart(ChannelHandlerContext ctx) {
    // The dialer speaks first.
  }

  @Override
  void onRead(ChannelHandlerContext ctx, Object msg) throws WebSocketException {
    boolean body;
    try {
      if (msg instanceof HttpObject http && http.decoderResult().isFailure()) {
        throw refuseUnreadable(http.decoderResult().cause());
      }
      if (msg instanceof HttpRequest request) {
        switching = accept(request);
      }
      body = msg instanceof HttpContent content && content.content().isReadable();
    } finally {
      ReferenceCountUtil.release(msg);
    }
    if (body) {
      throw refuse(HttpResponseStatus.BAD_REQUEST, Reason.HANDSHAKE_REFUSED, "an upgrade request with a body");
    }
    if (switching != null && msg instanceof LastHttpContent) {
      FullHttpResponse response = switching;
      switching = null;
      ctx.writeAndFlush(response);
      FrameCodec.takeOver(this, ctx, false);
    }
  }

  /** The failure for what Netty's decoder could not read, with the status that answers it. */
  private WebSocketException refuseUnreadable(Throwable cause) {
    WebSocketException failure = unreadable("request", cause);
    refusal = switch (failure.reason()) {
      case HANDSHAKE_TOO_LONG -> cause instanceof TooLongHttpLineException
          ? HttpResponseStatus.REQUEST_URI_TOO_LONG : HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
      case HANDSHAKE_REFUSED -> HttpResponseStatus.BAD_REQUEST;
      default -> null;
    };
    return failure;
  }

  private FullHttpResponse accept(HttpRequest request) throws WebSocketException {
    if (!request.protocolVersion().equals(HttpVersion.HTTP_1_1)) {
      throw refuse(HttpResponseStatus.BAD_REQUEST, Reason.HANDSHAKE_REFUSED, "an upgrade needs HTTP/1.1");
    }
    if (!new QueryStringDecoder(request.uri()).path().equals(path)) {
      throw refuse(HttpResponseStatus.NOT_FOUND, Reason.HANDSHAKE_REFUSED, "an upgrade of another path than " + path);
    }
    if (!WebSocketVersion.V13.toHttpHeaderValue().equals(request.headers().get(HttpHeaderNames.SEC_WEBSOCKET_VERSION))) {
      throw refuse(HttpResponseStatus.UPGRADE_REQUIRED, Reason.HANDSHAKE_REFUSED,
          "WebSocket version " + request.headers().get(HttpHeaderNames.SEC_WEBSOCKET_VERSION) + ", not 13");
    }
    try {
      return handshaker.respond(new DefaultFullHttpRequest(request.protocolVersion(), request.method(),
          request.uri(), Unpooled.EMPTY_BUFFER, request.headers(), EmptyHttpHeaders.INSTANCE));
    } catch (WebSocketHandshakeException e) {
      throw refuse(HttpResponseStatus.BAD_REQUEST, Reason.HANDSHAKE_REFUSED, e.getMessage());
    }
  }

  private WebSocketException refuse(HttpResponseStatus status, Reason reason, String why) {
    refusal = status;
    return new WebSocketException(reason, why + " (answered " + status.code() + ")");
  }

  @Override
  WebSocketException timeoutFailure() {
    return new WebSocketException(Reason.HANDSHAKE_TIMEOUT, "no whole upgrade request within "
        + config().handshakeTimeout());
  }

  @Override
  void onFailure(ChannelHandlerContext ctx, WebSocketException cause) {
    if (switching != null) {
      switching.release();
      switching = null;
    }
    if (refusal != null && ctx.channel().isActive()) {
      FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, refusal, Unpooled.EMPTY_BUFFER);
      response.headers()
          .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE)
          .setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
      if (refusal.equals(HttpResponseStatus.UPGRADE_REQUIRED)) {
        response.headers().set(HttpHeaderNames.SEC_WEBSOCKET_VERSION, WebSocketVersion.V13.toHttpHeaderValue());
      }
      ctx.writeAndFlush(response);
    }
  }

  /** Netty's handshaker for its 101 response; the pipeline is ours. */
  private static final class Handshaker extends WebSocketServerHandshaker13 {
    Handshaker(String path) {
      super(path, null, false, Integer.MAX_VALUE);
    }

    FullHttpResponse respond(DefaultFullHttpRequest request) {
      return newHandshakeResponse(request, null);
    }
  }
}
