package io.secio.streams.mplex;

import io.netty.channel.ChannelHandler;
import io.secio.streams.internal.MuxerHandler;
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
public final class MplexHandler extends MuxerHandler {
  private MplexHandler(MplexConfig config, ChannelHandler inboundStreamHandler) {
    super("mplex", Objects.requireNonNull(config, "config").notSentLowWater(),
        ctx -> new MplexSession(ctx, config, inboundStreamHandler));
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
}
