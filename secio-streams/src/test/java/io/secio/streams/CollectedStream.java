package io.secio.streams;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.secio.testsupport.Collect;
import java.util.Collection;
import java.util.function.Consumer;

/**
 * A stream and the test kit's {@link Collect} recording it, for tests that must know which stream a
 * record is of (the kit's collector does not say what it is on). {@link #into} gives every stream a
 * muxer accepts its own.
 *
 * @param stream the stream
 * @param collect its collector, which leaves the stream open on an exception ({@link Collect#observing()})
 */
public record CollectedStream(StreamChannel stream, Collect collect) {

  /**
   * An initializer that gives every stream its own {@link Collect#observing()} collector: adds the
   * pair to {@code sink}, runs {@code more} on the stream (when not null), then adds the collector last.
   */
  public static ChannelInitializer<Channel> into(Collection<CollectedStream> sink, Consumer<Channel> more) {
    return new ChannelInitializer<>() {
      @Override
      protected void initChannel(Channel ch) {
        Collect collect = Collect.observing();
        sink.add(new CollectedStream((StreamChannel) ch, collect));
        if (more != null) {
          more.accept(ch);
        }
        ch.pipeline().addLast(collect);
      }
    };
  }

  /** {@link #into(Collection, Consumer)} with nothing more to do. */
  public static ChannelInitializer<Channel> into(Collection<CollectedStream> sink) {
    return into(sink, null);
  }
}
