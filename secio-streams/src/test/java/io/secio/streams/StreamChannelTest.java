package io.secio.streams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.secio.testsupport.Collect;
import io.secio.testsupport.Echo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The child-channel contract ({@code docs/STREAMS.md} §2) on every muxer (yamux with the tentacle
 * and the libp2p profile, and mplex), two sessions in memory: streams open from either side, carry
 * bytes both ways, half-close each way, close, reset each way; a stream without half-closure answers
 * a last message that came with the peer's end before it closes; a refusal resets the stream before
 * its pipeline hears why.
 */
class StreamChannelTest {

  static Stream<Muxer> muxers() {
    return Muxer.all();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void bytesGoBothWaysOnStreamsOpenedFromEitherSide(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      Collect opener = Collect.observing();
      StreamChannel out = pair.open(opener);
      assertTrue(out.isInitiator());
      assertEquals(muxer.firstClientId(), out.streamId());
      assertEquals(1, pair.serverStreams.size());
      StreamChannel in = pair.serverStreams.get(0).stream();
      assertFalse(in.isInitiator());
      assertEquals(muxer.firstClientId(), in.streamId());
      assertEquals(pair.server, in.parent());

      out.writeAndFlush(Unpooled.wrappedBuffer(bytes("hello")));
      in.writeAndFlush(Unpooled.wrappedBuffer(bytes("world")));
      pair.pump();
      assertArrayEquals(bytes("hello"), pair.serverStreams.get(0).collect().received());
      assertArrayEquals(bytes("world"), opener.received());

      Future<StreamChannel> fromServer = new StreamChannelBootstrap(pair.server).handler(Collect.observing()).open();
      pair.pump();
      StreamChannel second = fromServer.getNow();
      assertEquals(muxer.firstServerId(), second.streamId());
      assertEquals(1, pair.clientStreams.size());
      assertEquals(muxer.firstServerId(), pair.clientStreams.get(0).stream().streamId());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void optionsAndAttributesApplyBeforeTheHandlerRuns(Muxer muxer) {
    AttributeKey<String> key = AttributeKey.valueOf("streamTest");
    List<Object> seenByInit = new ArrayList<>();
    try (SessionPair pair = new SessionPair(muxer)) {
      Future<StreamChannel> f = new StreamChannelBootstrap(pair.client)
          .option(ChannelOption.AUTO_READ, false).option(ChannelOption.ALLOW_HALF_CLOSURE, true)
          .attr(key, "v").handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              seenByInit.add(ch.config().isAutoRead());
              seenByInit.add(ch.attr(key).get());
            }
          }).open();
      pair.pump();
      StreamChannel s = f.getNow();
      assertFalse(s.config().isAutoRead());
      assertEquals(Boolean.TRUE, s.config().getOption(ChannelOption.ALLOW_HALF_CLOSURE));
      assertEquals("v", s.attr(key).get());
      assertEquals(List.of(false, "v"), seenByInit);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void shutdownOutputIsHalfCloseAfterEverythingWritten(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      Collect opener = Collect.observing();
      StreamChannel out = pair.open(opener);
      CollectedStream accepted = pair.serverStreams.get(0);
      accepted.stream().config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);

      out.write(Unpooled.wrappedBuffer(bytes("all of ")));
      out.write(Unpooled.wrappedBuffer(bytes("this")));
      ChannelFuture shut = out.shutdownOutput(); // no flush: the half-close flushes what came before
      pair.pump();
      assertTrue(shut.isSuccess());
      assertTrue(out.isOutputShutdown());
      assertArrayEquals(bytes("all of this"), accepted.collect().received());
      assertEquals(List.of("active", "inputShutdown", "inputShutdownReadComplete"), accepted.collect().events());
      assertTrue(accepted.stream().isInputShutdown());

      // The other direction still works, until it half-closes too: then both ends close.
      accepted.stream().writeAndFlush(Unpooled.wrappedBuffer(bytes("reply")));
      pair.pump();
      assertArrayEquals(bytes("reply"), opener.received());
      assertFalse(out.write(Unpooled.wrappedBuffer(bytes("late"))).isSuccess());
      accepted.stream().shutdownOutput();
      pair.pump();
      assertFalse(accepted.stream().isOpen());
      assertFalse(out.isOpen());
      assertTrue(opener.exceptions().isEmpty() && accepted.collect().exceptions().isEmpty());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void peerHalfCloseWithoutHalfClosureClosesTheStreamAndAnswersWithItsEnd(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      Collect opener = Collect.observing();
      StreamChannel out = pair.open(opener);
      out.writeAndFlush(Unpooled.wrappedBuffer(bytes("x")));
      out.shutdownOutput();
      pair.pump();
      CollectedStream accepted = pair.serverStreams.get(0);
      assertArrayEquals(bytes("x"), accepted.collect().received());
      assertFalse(accepted.stream().isOpen());
      assertEquals(List.of("active", "inactive"), accepted.collect().events());
      assertFalse(out.isOpen(), "the answering end closes the opener's half-closed stream");
      assertTrue(opener.exceptions().isEmpty());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void aStreamHalfClosedByThePeerClosesWhenItsConnectionEndsInOrder(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer, ch -> ch.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true))) {
      StreamChannel out = pair.open(Collect.observing());
      out.shutdownOutput();
      pair.pump();
      CollectedStream accepted = pair.serverStreams.get(0);
      assertEquals(List.of("active", "inputShutdown", "inputShutdownReadComplete"), accepted.collect().events());
      pair.server.close();
      pair.server.runPendingTasks();
      assertFalse(accepted.stream().isOpen(), "nothing comes and nothing may go: the stream is over");
      assertEquals(List.of("active", "inputShutdown", "inputShutdownReadComplete", "inactive"),
          accepted.collect().events());
      assertTrue(accepted.collect().exceptions().isEmpty());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void closeEndsTheStreamAndThePeersLaterDataIsDropped(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      Collect opener = Collect.observing();
      StreamChannel out = pair.open(opener);
      CollectedStream accepted = pair.serverStreams.get(0);
      accepted.stream().config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
      out.close();
      pair.pump();
      assertFalse(out.isOpen());
      assertEquals(List.of("active", "inputShutdown", "inputShutdownReadComplete"), accepted.collect().events());

      accepted.stream().writeAndFlush(Unpooled.wrappedBuffer(bytes("nobody reads this")));
      pair.pump();
      assertEquals(0, opener.received().length);
      assertTrue(opener.exceptions().isEmpty() && accepted.collect().exceptions().isEmpty());
      assertTrue(pair.client.isActive(), "data on a closed stream is dropped, not an error");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void resetEachWay(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      Collect opener = Collect.observing();
      StreamChannel out = pair.open(opener);
      CollectedStream accepted = pair.serverStreams.get(0);
      out.reset();
      pair.pump();
      assertFalse(out.isOpen());
      assertEquals(List.of("active", "exception StreamResetException", "inactive"), accepted.collect().events());
      assertEquals(muxer.firstClientId(), ((StreamResetException) accepted.collect().exceptions().get(0)).streamId());
      assertTrue(opener.exceptions().isEmpty());

      Collect second = Collect.observing();
      StreamChannel out2 = pair.open(second);
      pair.serverStreams.get(1).stream().reset();
      pair.pump();
      assertFalse(out2.isOpen());
      assertEquals(List.of("active", "exception StreamResetException", "inactive"), second.events());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void aLastMessageThatCameWithThePeersEndIsAnsweredBeforeTheStreamCloses(Muxer muxer) {
    List<CollectedStream> accepted = new ArrayList<>();
    try (SessionPair pair = new SessionPair(muxer.client().apply(null),
        muxer.server().apply(CollectedStream.into(accepted,
            ch -> ch.pipeline().addLast(Echo.passingExceptionsOn()))))) {
      Collect opener = Collect.observing();
      StreamChannel out = new StreamChannelBootstrap(pair.client).handler(opener).open().getNow();
      pair.pump();
      out.write(Unpooled.wrappedBuffer(bytes("last words")));
      out.shutdownOutput();
      pair.deliverInOneRead(pair.client, pair.server); // the message and the end in one read
      pair.pump();
      assertArrayEquals(bytes("last words"), opener.received(), "the reply went out before the close");
      assertTrue(opener.exceptions().isEmpty(), "ended, not reset: " + opener.exceptions());
      assertFalse(out.isOpen());
      assertEquals(List.of("active", "inactive"), accepted.get(0).collect().events());
    }
  }

  /** Refuses what its stream reads with {@link StreamChannel#reset(Throwable)}, closing when it hears why. */
  @ChannelHandler.Sharable
  private static final class RefuseAndCloseOnTheError extends ChannelInboundHandlerAdapter {
    final List<Throwable> heard = new ArrayList<>();
    final IOException refusal = new IOException("refused");

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ReferenceCountUtil.release(msg);
      ((StreamChannel) ctx.channel()).reset(refusal);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      heard.add(cause);
      ctx.close(); // too late to turn the refusal into a clean end
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void aRefusalResetsTheStreamBeforeItsPipelineHearsWhy(Muxer muxer) {
    RefuseAndCloseOnTheError refuse = new RefuseAndCloseOnTheError();
    try (SessionPair pair = new SessionPair(muxer, ch -> ch.pipeline().addLast(refuse))) {
      Collect opener = Collect.observing();
      StreamChannel out = pair.open(opener);
      ByteBuf request = Unpooled.wrappedBuffer(bytes("a request over some limit"));
      out.writeAndFlush(request);
      pair.pump();
      assertEquals(1, refuse.heard.size());
      assertSame(refuse.refusal, refuse.heard.get(0));
      assertFalse(pair.serverStreams.get(0).stream().isOpen());
      assertEquals(List.of("active", "exception StreamResetException", "inactive"), opener.events());
      assertInstanceOf(StreamResetException.class, opener.exceptions().get(0));
      assertFalse(out.isOpen());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void theOpeningFrameGoesOutAtOnceEvenWhenTheStreamReadsNothing(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      Future<StreamChannel> f = new StreamChannelBootstrap(pair.client).option(ChannelOption.AUTO_READ, false)
          .handler(Collect.observing()).open();
      assertTrue(f.isSuccess());
      assertTrue(pair.client.outboundMessages().size() > 0, "flushed with the open");
      pair.pump();
      assertEquals(1, pair.serverStreams.size());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void aStreamOpenedForAPromiseAlreadyCompletedIsClosedAtOnce(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      Promise<StreamChannel> done = pair.client.eventLoop().newPromise();
      done.setSuccess(null);
      Collect c = Collect.observing();
      new StreamChannelBootstrap(pair.client).handler(c).open(done);
      pair.client.runPendingTasks();
      assertEquals(List.of("active", "inactive"), c.events(), "opened, then closed: nobody holds it");
      pair.pump();
      assertEquals(1, pair.serverStreams.size());
      assertFalse(pair.serverStreams.get(0).stream().isOpen(), "the peer saw it end");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void removingTheMuxerFailsEveryStreamAndOpensNoMore(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      Collect opener = Collect.observing();
      pair.open(opener);
      pair.client.pipeline().removeFirst();
      pair.client.runPendingTasks();
      assertEquals(List.of("active", "exception " + opener.exceptions().get(0).getClass().getSimpleName(), "inactive"),
          opener.events());
      assertTrue(opener.exceptions().get(0).getMessage().endsWith("handler left the pipeline"),
          opener.exceptions().toString());
      Future<StreamChannel> late = new StreamChannelBootstrap(pair.client).handler(Collect.observing()).open();
      pair.client.runPendingTasks();
      assertInstanceOf(IllegalStateException.class, late.cause(), "no muxer in the pipeline any more");
      assertTrue(pair.client.isOpen(), "the connection is the application's again");
    }
  }
}
