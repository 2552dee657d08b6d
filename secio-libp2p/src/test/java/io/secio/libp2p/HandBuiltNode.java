package io.secio.libp2p;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.secio.SecioConfig;
import io.secio.netty.multistream.Multistream;
import io.secio.streams.mplex.MplexConfig;
import io.secio.streams.mplex.MplexHandler;
import java.util.function.Supplier;

/**
 * A listener's pipeline built by hand for the hostile tests: secio and mplex by multistream-select
 * as a libp2p node runs them, but the peer's streams serve one protocol only, with the test's
 * handler (a node that breaks that protocol) instead of a {@link Libp2pSession}'s.
 */
final class HandBuiltNode {
  private HandBuiltNode() {}

  /** For {@link JavaNodes#listen}: secio as {@code secio}, then mplex, streams of {@code protocol} to {@code answer}. */
  static Supplier<ChannelHandler> serving(SecioConfig secio, String protocol, Supplier<ChannelHandler> answer) {
    ChannelInitializer<Channel> streams = new ChannelInitializer<>() {
      @Override
      protected void initChannel(Channel stream) {
        stream.pipeline().addLast(Multistream.responder(protocol, answer.get()));
      }
    };
    return () -> new ChannelInitializer<Channel>() {
      @Override
      protected void initChannel(Channel ch) {
        ch.pipeline().addLast(Multistream.secioResponder(secio),
            Multistream.responder(Muxer.MPLEX.protocolId(), MplexHandler.create(MplexConfig.defaults(), streams)));
      }
    };
  }
}
