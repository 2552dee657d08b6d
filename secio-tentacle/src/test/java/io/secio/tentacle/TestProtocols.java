package io.secio.tentacle;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.secio.testsupport.Echo;
import java.util.List;

/** The recordings' protocols: the listener's echo and chatter, their ids and message sizes. */
final class TestProtocols {
  static final String ECHO = "/test/echo";
  static final String CHATTER = "/test/chatter";
  static final List<Integer> CHATTER_SIZES = List.of(0, 1, 1000, 100000, 1000000);
  static final List<Integer> ECHO_SIZES = List.of(0, 1, 1000, 300000, 1100000, 7);

  private TestProtocols() {}

  /** Sends the recorded chatter messages as soon as its stream is open. */
  static ChannelHandler chatterSender() {
    return new ChannelInitializer<Channel>() {
      @Override
      protected void initChannel(Channel stream) {
        for (int k = 0; k < CHATTER_SIZES.size(); k++) {
          stream.write(Unpooled.wrappedBuffer(Recorded.chatterMessage(k, CHATTER_SIZES.get(k))));
        }
        stream.flush();
      }
    };
  }

  static TentacleConfig listener() {
    return TentacleConfig.builder()
        .protocol(TentacleProtocol.of(ECHO, List.of("1", "2"), new Echo()))
        .protocol(TentacleProtocol.of(CHATTER, List.of("1"), chatterSender()))
        .build();
  }
}
