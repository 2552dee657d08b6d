package io.secio.netty.negotiation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.secio.netty.NegotiatedProtocol;
import io.secio.netty.NegotiationCompletionEvent;
import io.secio.netty.stage.StageSink;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The one "open a stream and negotiate" seam ({@link NegotiatedStreams}, {@link NegotiationStage}):
 * a stream's open completes once its stage agreed, or fails with the stage's failure, which the
 * handlers heard as one event and one {@code exceptionCaught} before the close, and which ends at the
 * sink rather than Netty's tail (an {@link EmbeddedChannel} rethrows what reaches its tail). A stage
 * made here for the test agrees on {@code /yes} when it reads {@code 'y'} and fails on anything else.
 */
class NegotiatedStreamsTest {
  private static final NegotiatedProtocol YES = NegotiatedProtocol.of("/yes", "1");

  /** Agrees on {@link #YES} at a {@code 'y'}, putting {@code next} in its place; fails on another byte. */
  private static final class YesStage extends NegotiationStage {
    private final ChannelHandler next;

    YesStage(ChannelHandler next) {
      super(Duration.ofMinutes(1));
      this.next = next;
    }

    @Override
    protected void onStart() {}

    @Override
    protected void onRead(ByteBuf msg) throws IOException {
      try {
        if (msg.readByte() != 'y') {
          throw new IOException("not yes");
        }
      } finally {
        msg.release();
      }
      agree(YES, next, List.of());
    }

    @Override
    protected Throwable timeoutFailure() {
      return new IOException("timed out");
    }

    @Override
    protected Throwable closedFailure(String why, Throwable cause) {
      return new IOException(why, cause);
    }
  }

  /** What a protocol's handler hears. */
  private static final class Heard extends ChannelInboundHandlerAdapter {
    final List<Object> events = new ArrayList<>();
    final List<Throwable> exceptions = new ArrayList<>();
    NegotiatedProtocol agreedWhenAdded;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      agreedWhenAdded = NegotiationStage.agreed(ctx.channel()).orElse(null);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      events.add(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      exceptions.add(cause);
      ctx.fireExceptionCaught(cause); // as a handler that leaves it to the pipeline does
    }
  }

  private static Future<Channel> opened(Channel stream) {
    return ImmediateEventExecutor.INSTANCE.newSucceededFuture(stream);
  }

  @Test
  void aStreamThisSideOpensCompletesOnceItsStageAgreed() {
    Heard heard = new Heard();
    EmbeddedChannel stream = new EmbeddedChannel(NegotiatedStreams.opening(new YesStage(null), heard));
    Future<Channel> agreed = NegotiatedStreams.whenAgreed(opened(stream), stream.eventLoop());
    assertFalse(agreed.isDone(), "not before the stage agreed");
    assertTrue(NegotiationStage.agreed(stream).isEmpty());
    stream.writeInbound(Unpooled.wrappedBuffer(new byte[] {'y'}));
    assertSame(stream, agreed.getNow());
    assertEquals(YES, NegotiationStage.agreed(stream).orElseThrow());
    assertEquals(YES, NegotiationStage.negotiation(stream).getNow());
    NegotiationCompletionEvent event = assertInstanceOf(NegotiationCompletionEvent.class, heard.events.get(0));
    assertEquals(YES, event.protocol());
    assertTrue(heard.exceptions.isEmpty());
    assertFalse(stream.finishAndReleaseAll());
  }

  @Test
  void aFailedNegotiationFailsTheOpenWithItsCauseHeardOnceAndEndingAtTheSink() {
    Heard heard = new Heard();
    EmbeddedChannel stream = new EmbeddedChannel(NegotiatedStreams.opening(new YesStage(null), heard));
    Future<Channel> agreed = NegotiatedStreams.whenAgreed(opened(stream), stream.eventLoop());
    stream.writeInbound(Unpooled.wrappedBuffer(new byte[] {'n'}));
    stream.checkException(); // nothing reached the tail
    IOException cause = assertInstanceOf(IOException.class, agreed.cause());
    assertEquals("not yes", cause.getMessage());
    NegotiationCompletionEvent event = assertInstanceOf(NegotiationCompletionEvent.class, heard.events.get(0));
    assertSame(cause, event.cause());
    assertEquals(List.of(cause), heard.exceptions, "one exceptionCaught, the same cause");
    assertFalse(stream.isOpen(), "the stream closed");
    assertFalse(stream.finishAndReleaseAll());
  }

  @Test
  void aFailedOpenFailsTheResult() {
    IOException refused = new IOException("refused");
    Future<Channel> agreed = NegotiatedStreams.whenAgreed(
        ImmediateEventExecutor.INSTANCE.newFailedFuture(refused), ImmediateEventExecutor.INSTANCE);
    assertSame(refused, agreed.cause());
  }

  @Test
  void aStreamThePeerOpensGetsTheProtocolsHandlerInTheStagesPlaceWithTheProtocolReadable() {
    Heard heard = new Heard();
    EmbeddedChannel stream = new EmbeddedChannel(NegotiatedStreams.accepting(() -> new YesStage(heard)));
    stream.writeInbound(Unpooled.wrappedBuffer(new byte[] {'y'}));
    assertEquals(YES, heard.agreedWhenAdded, "readable in the handler's handlerAdded");
    assertInstanceOf(NegotiationCompletionEvent.class, heard.events.get(0));
    // Once agreed, the sink passes exceptions on.
    IllegalStateException own = new IllegalStateException("the protocol's own");
    stream.pipeline().fireExceptionCaught(own);
    assertSame(own, assertThrows(IllegalStateException.class, stream::checkException));
    assertFalse(stream.finishAndReleaseAll());
  }

  /** Sharable by its own say, as Netty lets a handler decide. */
  private static final class SaysSharable extends ChannelInboundHandlerAdapter {
    @Override
    public boolean isSharable() {
      return true;
    }
  }

  @Test
  void sharableIsNettysOwnTest() {
    ChannelHandler says = new SaysSharable();
    assertSame(says, NegotiatedStreams.requireSharable(says));
    ChannelHandler initializer = new ChannelInitializer<Channel>() {
      @Override
      protected void initChannel(Channel ch) {}
    };
    assertSame(initializer, NegotiatedStreams.requireSharable(initializer));
    assertThrows(IllegalArgumentException.class, () -> NegotiatedStreams.requireSharable(new Heard()));
  }

  @Test
  void aConnectionsFailureEndsAfterTheStackUnlessTheApplicationAddedHandlers() {
    ChannelHandler stackEnd = new ChannelInboundHandlerAdapter() {
      @Override
      public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        StageSink.passOn(ctx, cause);
      }
    };
    EmbeddedChannel alone = new EmbeddedChannel(stackEnd);
    alone.pipeline().fireExceptionCaught(new IOException("the muxer failed"));
    alone.checkException();
    assertFalse(alone.isOpen(), "ended there, and closed");

    Heard application = new Heard();
    EmbeddedChannel withApplication = new EmbeddedChannel(new ChannelInboundHandlerAdapter() {
      @Override
      public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        StageSink.passOn(ctx, cause);
      }
    }, application);
    IOException failure = new IOException("the muxer failed");
    withApplication.pipeline().fireExceptionCaught(failure);
    assertEquals(List.of(failure), application.exceptions, "passed on to the application");
    assertSame(failure, assertThrows(IOException.class, withApplication::checkException),
        "and from it, as it left it, to the tail");
    assertFalse(withApplication.finishAndReleaseAll());
  }
}
