package io.secio.websocket;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerAdapter;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.Future;
import java.net.URI;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A WebSocket connection as a byte stream under secio, as tentacle's {@code /ws} transport speaks it
 * ({@code docs/WEBSOCKET.md}): binary frames carry the bytes and a frame boundary means nothing. Put
 * the handler before the stack's, in one line:
 *
 * <pre>{@code
 * // dialling /ip4/127.0.0.1/tcp/8114/ws (in a Bootstrap's ChannelInitializer)
 * ch.pipeline().addLast(WebSocket.client(URI.create("ws://127.0.0.1:8114/")),
 *     Tentacle.client(secioConfig, tentacleConfig, nodePeerId));
 * // accepting WebSocket only (in a ServerBootstrap's child ChannelInitializer)
 * ch.pipeline().addLast(WebSocket.server("/"), Tentacle.server(secioConfig, tentacleConfig));
 * // one port for TCP and WebSocket dialers, as a CKB node's
 * ch.pipeline().addLast(WebSocket.serverOrTcp("/"), Tentacle.server(secioConfig, tentacleConfig));
 * }</pre>
 *
 * <p>The returned handler replaces itself with an HTTP codec named {@value #HTTP_CODEC_NAME} and the
 * handshake named {@value #HANDLER_NAME}. What the handlers after it write during the handshake waits
 * and goes out in order after it. Once it is done the HTTP codec gives way to a frame encoder and
 * decoder ({@value #ENCODER_NAME}, {@value #DECODER_NAME}) and the handshake to the byte stream
 * under the same name {@value #HANDLER_NAME}: the handlers after it read and write {@code ByteBuf}s.
 *
 * <p><b>One failure path.</b> A failed handshake (refused, too long, timed out, closed first) fails
 * {@link #handshakeFuture}, fires {@code exceptionCaught} once with a {@link WebSocketException}
 * (which secio's handshake, if it runs after, takes as its own failure), and closes the channel. A
 * failure after it (a text frame, a frame too long or malformed) fires one {@link
 * WebSocketException} after the close frame saying why, and closes. Closing the channel sends a close
 * frame first; the peer's close frame closes the channel. WebSocket has no half-close: the peer's
 * TCP FIN arrives as it is, and shutting the output down sends a FIN without a close frame.
 *
 * <p>The returned handlers are {@link ChannelHandler.Sharable} and thread-safe.
 */
public final class WebSocket {
  /** Name of the HTTP codec in the pipeline during the handshake. */
  public static final String HTTP_CODEC_NAME = "ws-http";
  /** Name of the handshake, and after it of the byte stream, in the pipeline. */
  public static final String HANDLER_NAME = "websocket";
  /** Name of the frame encoder in the pipeline after the handshake. */
  public static final String ENCODER_NAME = "ws-encoder";
  /** Name of the frame decoder in the pipeline after the handshake. */
  public static final String DECODER_NAME = "ws-decoder";

  static final AttributeKey<Future<Void>> HANDSHAKE = AttributeKey.valueOf(WebSocket.class, "handshake");

  private WebSocket() {}

  /**
   * The dialer's handler with the default limits.
   *
   * @param uri {@code ws://host[:port][/path]}; the path is {@code /} if absent
   * @return a handler for a client channel's pipeline, before the stack's
   */
  public static ChannelHandler client(URI uri) {
    return client(WebSocketConfig.defaults(), uri);
  }

  /**
   * The dialer's handler: sends the upgrade request for {@code uri} once connected.
   *
   * @param config the limits
   * @param uri {@code ws://host[:port][/path]}; the path is {@code /} if absent ({@code wss} is not
   *     supported: put Netty's {@code SslHandler} before this handler and dial {@code ws})
   * @return a handler for a client channel's pipeline, before the stack's
   */
  public static ChannelHandler client(WebSocketConfig config, URI uri) {
    Objects.requireNonNull(config, "config");
    URI target = target(uri);
    return new Installer("WebSocket.client(" + target + ")", () -> new ClientHandshake(config, target),
        () -> new HttpClientCodec(httpDecoderConfig(config), false, false));
  }

  /**
   * The listener's handler with the default limits.
   *
   * @param path the path the dialers upgrade, such as {@code /}
   * @return a handler for an accepted channel's pipeline, before the stack's
   */
  public static ChannelHandler server(String path) {
    return server(WebSocketConfig.defaults(), path);
  }

  /**
   * The listener's handler: answers a version-13 upgrade of {@code path} (any query), refuses
   * anything else with an HTTP status.
   *
   * @param config the limits
   * @param path the path the dialers upgrade, such as {@code /} (what tentacle and the CKB light
   *     client dial)
   * @return a handler for an accepted channel's pipeline, before the stack's
   */
  public static ChannelHandler server(WebSocketConfig config, String path) {
    Objects.requireNonNull(config, "config");
    String p = path(path);
    return new Installer("WebSocket.server(" + p + ")", () -> new ServerHandshake(config, p),
        () -> httpServerCodec(config));
  }

  /**
   * The handler of a listener serving TCP and WebSocket on one port, with the default limits.
   *
   * @param path the path the WebSocket dialers upgrade, such as {@code /}
   * @return a handler for an accepted channel's pipeline, before the stack's
   */
  public static ChannelHandler serverOrTcp(String path) {
    return serverOrTcp(WebSocketConfig.defaults(), path);
  }

  /**
   * The handler of a listener serving TCP and WebSocket on one port, as a CKB node's: the first four
   * bytes decide. An HTTP {@code GET } makes it {@link #server(WebSocketConfig, String)}; a
   * big-endian length prefix under 16 MiB (how secio's first message, and tentacle's yamux without
   * secio, start) leaves the channel to the handlers after it as plain TCP; anything else fails with
   * {@link WebSocketException.Reason#NOT_RECOGNISED}. Those four bytes must come within {@link
   * WebSocketConfig#handshakeTimeout()}. What the handlers after it write meanwhile waits.
   *
   * @param config the limits
   * @param path the path the WebSocket dialers upgrade
   * @return a handler for an accepted channel's pipeline, before the stack's
   */
  public static ChannelHandler serverOrTcp(WebSocketConfig config, String path) {
    Objects.requireNonNull(config, "config");
    String p = path(path);
    return new Installer("WebSocket.serverOrTcp(" + p + ")", () -> new TransportSniffer(config, p), null);
  }

  /**
   * The WebSocket handshake of {@code channel}: succeeds once the frames flow, or fails with a
   * {@link WebSocketException}.
   *
   * @param channel a channel one of this class's handlers was added to (on a listener serving both,
   *     once its first bytes chose WebSocket)
   * @return the handshake's future
   * @throws IllegalStateException if no WebSocket handshake was added to the channel
   */
  public static Future<Void> handshakeFuture(Channel channel) {
    Future<Void> future = channel.attr(HANDSHAKE).get();
    if (future == null) {
      throw new IllegalStateException("no WebSocket handshake on " + channel);
    }
    return future;
  }

  /**
   * Whether {@code channel} runs WebSocket: a client or server handler was added to it, or a
   * listener serving both chose WebSocket for it.
   *
   * @param channel a channel
   * @return true once a WebSocket handshake is on it
   */
  public static boolean isWebSocket(Channel channel) {
    return channel.attr(HANDSHAKE).get() != null;
  }

  static HttpServerCodec httpServerCodec(WebSocketConfig config) {
    return new HttpServerCodec(httpDecoderConfig(config));
  }

  /** The HTTP head limits; a chunk limit is moot (no body is taken). */
  private static HttpDecoderConfig httpDecoderConfig(WebSocketConfig config) {
    return new HttpDecoderConfig()
        .setMaxInitialLineLength(config.maxHttpHeaderLength())
        .setMaxHeaderSize(config.maxHttpHeaderLength())
        .setMaxChunkSize(config.maxHttpHeaderLength());
  }

  private static URI target(URI uri) {
    Objects.requireNonNull(uri, "uri");
    if (!"ws".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
      throw new IllegalArgumentException("a WebSocket URI is ws://host[:port][/path]: " + uri);
    }
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    return URI.create("ws://" + uri.getRawAuthority() + path + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()));
  }

  private static String path(String path) {
    Objects.requireNonNull(path, "path");
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException("a path starts with '/': " + path);
    }
    return path;
  }

  /** Puts a new stage, and an HTTP codec before it if it has one, in its own place. */
  @ChannelHandler.Sharable
  private static final class Installer extends ChannelHandlerAdapter {
    private final String name;
    private final Supplier<ChannelHandler> stage;
    private final Supplier<ChannelHandler> http;

    Installer(String name, Supplier<ChannelHandler> stage, Supplier<ChannelHandler> http) {
      this.name = name;
      this.stage = stage;
      this.http = http;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      // The codec first: a stage added to an active channel starts at once, and may write.
      ChannelPipeline pipeline = ctx.pipeline();
      if (http != null) {
        pipeline.addBefore(ctx.name(), HTTP_CODEC_NAME, http.get());
      }
      pipeline.replace(this, HANDLER_NAME, stage.get());
    }

    @Override
    public String toString() {
      return name;
    }
  }
}
