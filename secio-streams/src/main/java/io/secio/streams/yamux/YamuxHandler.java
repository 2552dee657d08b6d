package io.secio.streams.yamux;

import io.netty.channel.ChannelHandler;
import io.secio.streams.internal.MuxerHandler;
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
public final class YamuxHandler extends MuxerHandler {
  private YamuxHandler(YamuxConfig config, boolean client, ChannelHandler inboundStreamHandler) {
    super("yamux", Objects.requireNonNull(config, "config").notSentLowWater(),
        ctx -> new YamuxSession(ctx, config, client, inboundStreamHandler));
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
}
