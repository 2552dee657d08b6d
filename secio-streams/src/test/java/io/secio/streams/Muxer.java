package io.secio.streams;

import io.netty.channel.ChannelHandler;
import io.secio.streams.mplex.MplexConfig;
import io.secio.streams.mplex.MplexHandler;
import io.secio.streams.yamux.YamuxConfig;
import io.secio.streams.yamux.YamuxHandler;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * A muxer as the generic stream tests see it: its handler on each side, given the handler of the
 * streams the peer opens, and the few facts in which muxers differ.
 *
 * @param name for test names
 * @param client the dialer's handler
 * @param server the listener's handler
 * @param firstClientId the id of the first stream the client opens
 * @param firstServerId the id of the first stream the server opens
 */
public record Muxer(String name, Function<ChannelHandler, ChannelHandler> client,
    Function<ChannelHandler, ChannelHandler> server, long firstClientId, long firstServerId) {

  /** yamux with {@code config} on both sides. */
  public static Muxer yamux(YamuxConfig config) {
    return yamux(config, config);
  }

  /** yamux with a config for each side. */
  public static Muxer yamux(YamuxConfig clientConfig, YamuxConfig serverConfig) {
    return new Muxer("yamux", h -> YamuxHandler.client(clientConfig, h), h -> YamuxHandler.server(serverConfig, h), 1, 2);
  }

  /** mplex with {@code config} on both sides. */
  public static Muxer mplex(MplexConfig config) {
    return new Muxer("mplex", h -> MplexHandler.create(config, h), h -> MplexHandler.create(config, h), 0, 0);
  }

  /** The muxers every generic stream test runs on: yamux's tentacle and libp2p profiles, and mplex. */
  public static Stream<Muxer> all() {
    return Stream.of(named("yamux tentacle", yamux(YamuxConfig.tentacle())),
        named("yamux libp2p", yamux(YamuxConfig.libp2p())), mplex(MplexConfig.defaults()));
  }

  private static Muxer named(String name, Muxer m) {
    return new Muxer(name, m.client, m.server, m.firstClientId, m.firstServerId);
  }

  @Override
  public String toString() {
    return name;
  }
}
