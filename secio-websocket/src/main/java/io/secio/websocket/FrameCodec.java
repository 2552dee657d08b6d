package io.secio.websocket;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.CombinedChannelDuplexHandler;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameEncoder;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;

/**
 * The swap from HTTP to frames once a handshake is done, one place for both sides: Netty's RFC 6455
 * frame encoder and decoder go where the HTTP codec was, and a {@link BinaryStream} takes the
 * handshake's place.
 */
final class FrameCodec {
  private FrameCodec() {}

  /**
   * Ends {@code stage} with the frame codec in place of the HTTP codec. The order matters: the
   * queued writes pass through the new stream and encoder (the HTTP encoder is gone), then the HTTP
   * decoder is removed, which hands the bytes it read past the handshake to the frame decoder.
   *
   * @param client whether this side masks what it writes (a client) and expects unmasked frames
   */
  static void takeOver(UpgradeStage stage, ChannelHandlerContext ctx, boolean client) {
    ChannelPipeline pipeline = ctx.pipeline();
    CombinedChannelDuplexHandler<?, ?> http =
        (CombinedChannelDuplexHandler<?, ?>) pipeline.get(WebSocket.HTTP_CODEC_NAME);
    WebSocketDecoderConfig frames = WebSocketDecoderConfig.newBuilder()
        .maxFramePayloadLength(stage.config().maxFramePayloadLength())
        .expectMaskedFrames(!client)
        .allowMaskMismatch(false)
        .allowExtensions(false)
        .closeOnProtocolViolation(true)
        .build();
    pipeline.addAfter(WebSocket.HTTP_CODEC_NAME, WebSocket.ENCODER_NAME, new WebSocket13FrameEncoder(client));
    pipeline.addAfter(WebSocket.ENCODER_NAME, WebSocket.DECODER_NAME, new WebSocket13FrameDecoder(frames));
    http.removeOutboundHandler();
    stage.succeed(new BinaryStream(stage.config()), () -> pipeline.remove(http));
  }
}
