package io.secio.netty.negotiation;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.Future;
import io.secio.HandshakeLimiter;
import io.secio.netty.NegotiatedProtocol;
import io.secio.netty.NegotiationCompletionEvent;
import io.secio.netty.stage.StageHandler;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A stage that negotiates a protocol (multistream-select, tentacle's protocol-select): every such
 * stage completes the same way, so the handlers behind it and the stacks above it hear one contract.
 * Its outcome is a {@link NegotiatedProtocol} in the channel's {@link #negotiation(Channel)} future;
 * on agreement the protocol is readable from the channel ({@link #agreed(Channel)}) before the
 * protocol's handlers take the stage's place, and a {@link NegotiationCompletionEvent} follows; on
 * failure the {@link StageHandler}'s one path fires the failed event, one {@code exceptionCaught} and
 * closes the channel.
 *
 * <p>Not sharable; the channel's event loop. Not API, as {@link StageHandler}.
 */
public abstract class NegotiationStage extends StageHandler<NegotiatedProtocol> {
  private static final AttributeKey<Future<NegotiatedProtocol>> NEGOTIATION =
      AttributeKey.valueOf(NegotiationStage.class, "negotiation");
  private static final AttributeKey<NegotiatedProtocol> AGREED =
      AttributeKey.valueOf(NegotiationStage.class, "agreed");

  /** A negotiation that must end within {@code timeout}. */
  protected NegotiationStage(Duration timeout) {
    super(timeout, null, NEGOTIATION);
  }

  /**
   * The outcome of the latest negotiation started on {@code channel}, or null if none was.
   *
   * @param channel a connection or a stream
   * @return the future, or null
   */
  public static Future<NegotiatedProtocol> negotiation(Channel channel) {
    return channel.attr(NEGOTIATION).get();
  }

  /**
   * The protocol the latest agreeing negotiation on {@code channel} agreed on: present from the
   * moment the protocol's handlers are added.
   *
   * @param channel a connection or a stream
   * @return the protocol, or empty if no negotiation agreed yet
   */
  public static Optional<NegotiatedProtocol> agreed(Channel channel) {
    return Optional.ofNullable(channel.attr(AGREED).get());
  }

  /**
   * Ends the stage with agreement on {@code protocol}: readable from the channel first, then {@code
   * next} takes the stage's place ({@link #succeed}).
   */
  protected final void agree(NegotiatedProtocol protocol, ChannelHandler next, List<?> rest) {
    context().channel().attr(AGREED).set(protocol);
    succeed(protocol, next, rest);
  }

  /** A negotiation's first message goes out at once, ahead of what follows it. */
  @Override
  protected boolean defersStart() {
    return false;
  }

  @Override
  protected final Throwable refusedFailure(HandshakeLimiter limiter) {
    throw new AssertionError("a negotiation takes no permit");
  }

  @Override
  protected final Object successEvent(NegotiatedProtocol outcome) {
    return NegotiationCompletionEvent.success(outcome);
  }

  @Override
  protected final Object failureEvent(Throwable cause) {
    return NegotiationCompletionEvent.failure(cause);
  }
}
