package io.secio.netty.stage;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The last handler of a stream whose pipeline starts with a {@link StageHandler} (multistream-select,
 * tentacle's protocol-select): until the stage has agreed on the stream, an exception (the stage's
 * failure: the peer's refusal, a close, a bad message) ends here and the stream is closed, instead of
 * reaching Netty's tail with a warning and a stack trace in the application's log, which a peer could
 * otherwise fill at will. The failure was reported already, by the stage's promise and event. Once the
 * stage has agreed, every exception passes on as the protocol's handlers leave it.
 *
 * <p>Sharable and stateless. Not API, as {@link StageHandler}.
 */
@ChannelHandler.Sharable
public final class StageSink extends ChannelInboundHandlerAdapter {
  private final Predicate<Channel> agreed;

  /**
   * A sink for the streams of one kind of stage.
   *
   * @param agreed whether the stage has agreed on a stream (its protocol is chosen)
   */
  public StageSink(Predicate<Channel> agreed) {
    this.agreed = Objects.requireNonNull(agreed, "agreed");
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (agreed.test(ctx.channel())) {
      ctx.fireExceptionCaught(cause);
    } else {
      ctx.close(); // closed already by the stage's failure, as a rule: then this does nothing
    }
  }
}
