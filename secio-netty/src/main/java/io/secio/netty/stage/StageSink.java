package io.secio.netty.stage;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.Objects;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a stage's failure ends, so that a peer cannot fill the application's log with Netty's
 * "reached the tail of the pipeline" warnings and their stack traces.
 *
 * <p>As a handler, the last of a stream whose pipeline starts with a {@link StageHandler}
 * (multistream-select, tentacle's protocol-select): until the stage has agreed on the stream, an
 * exception (the stage's failure: the peer's refusal, a close, a bad message) ends here and the stream
 * is closed. The failure was reported already, by the stage's promise and event. Once the stage has
 * agreed, every exception passes on as the protocol's handlers leave it.
 *
 * <p>For a connection, {@link #passOn} ends the failure of a stack (secio, the muxer, the session)
 * after the stack's last handler when the application added none behind it.
 *
 * <p>Sharable and stateless. Not API, as {@link StageHandler}.
 */
@ChannelHandler.Sharable
public final class StageSink extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(StageSink.class);

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

  /**
   * Passes {@code cause} on to the handlers behind {@code ctx}'s, the application's; when there are
   * none, it ends here instead of at Netty's tail: one line at DEBUG, no stack trace, and the channel
   * closes (as a rule it is closing already: every failure of a stack closes its connection).
   *
   * @param ctx the context of a stack's last handler
   * @param cause the failure
   */
  public static void passOn(ChannelHandlerContext ctx, Throwable cause) {
    if (ctx.pipeline().last() != ctx.handler()) {
      ctx.fireExceptionCaught(cause);
      return;
    }
    if (LOG.isDebugEnabled()) {
      LOG.debug("{} ended: {}", ctx.channel(), cause.toString());
    }
    ctx.close();
  }
}
