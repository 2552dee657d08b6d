package io.secio.netty.stage;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.AttributeKey;
import org.junit.jupiter.api.Test;

/**
 * {@link StageSink}: before its stage agreed, an exception ends at the sink and the stream is closed
 * (an {@link EmbeddedChannel} rethrows whatever reaches its tail); after, exceptions pass on and the
 * stream stays open. One sink serves many streams, each judged by its own state.
 */
class StageSinkTest {
  private static final AttributeKey<Boolean> AGREED = AttributeKey.valueOf(StageSinkTest.class, "agreed");
  private static final StageSink SINK = new StageSink(ch -> Boolean.TRUE.equals(ch.attr(AGREED).get()));

  @Test
  void beforeTheAgreementAnExceptionStopsAndClosesTheStream() {
    EmbeddedChannel stream = new EmbeddedChannel(SINK);
    stream.pipeline().fireExceptionCaught(new IllegalStateException("the stage failed"));
    stream.checkException();
    assertFalse(stream.isOpen());
  }

  @Test
  void afterTheAgreementExceptionsPassOnAndTheStreamStaysOpen() {
    EmbeddedChannel agreed = new EmbeddedChannel(SINK);
    EmbeddedChannel other = new EmbeddedChannel(SINK);
    agreed.attr(AGREED).set(true);
    IllegalStateException own = new IllegalStateException("the protocol's own");
    agreed.pipeline().fireExceptionCaught(own);
    assertSame(own, assertThrows(IllegalStateException.class, agreed::checkException));
    assertTrue(agreed.isOpen());
    other.pipeline().fireExceptionCaught(new IllegalStateException("another stream's stage"));
    other.checkException();
    assertFalse(other.isOpen());
    agreed.finishAndReleaseAll();
  }
}
