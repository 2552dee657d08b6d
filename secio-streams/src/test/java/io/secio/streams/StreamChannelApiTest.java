package io.secio.streams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipelineException;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.local.LocalAddress;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalServerChannel;
import io.netty.channel.socket.ChannelOutputShutdownException;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.secio.streams.yamux.YamuxConfig;
import io.secio.streams.yamux.YamuxHandler;
import io.secio.testsupport.Collect;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A stream as the Netty {@code Channel} it is, on every muxer: its identity and addresses (its
 * connection's), what a stream cannot do (bind, connect, register), writes it refuses and why,
 * shutting input (the bytes go, their credit comes back) and both ways, its config's options, and
 * the bootstrap's options, attributes and opens from another thread.
 */
class StreamChannelApiTest {
  private static final long GUARD_MINUTES = 5;

  static Stream<Muxer> muxers() {
    return Muxer.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void aStreamIsNamedAfterItsConnectionAndSharesItsLoopAndAddresses(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      StreamChannel out = pair.open(Collect.observing());
      StreamChannel in = pair.serverStreams.get(0).stream();
      assertEquals(pair.client.id().asShortText() + "/" + out.streamId(), out.id().asShortText());
      assertEquals(pair.client.id().asLongText() + "/" + out.streamId(), out.id().asLongText());
      assertEquals(out.id().asShortText(), out.id().toString());
      assertEquals(out.id(), out.id());
      assertNotEquals(out.id(), pair.client.id());
      assertEquals(out.id().hashCode(), out.id().hashCode());
      StreamChannel later = pair.open(Collect.observing());
      assertNotEquals(out.id(), later.id());
      assertTrue(out.id().compareTo(later.id()) < 0 && later.id().compareTo(out.id()) > 0);
      assertEquals(0, out.id().compareTo(pair.client.id()), "against a connection's id, its own connection's decides");
      assertEquals(0, out.compareTo(out));
      assertTrue(out.compareTo(later) < 0);
      assertEquals(out.id().hashCode(), out.hashCode());
      assertNotEquals(out, later);
      assertSame(pair.client.eventLoop(), out.eventLoop());
      assertEquals(pair.client.localAddress(), out.localAddress());
      assertEquals(pair.client.remoteAddress(), out.remoteAddress());
      assertEquals(pair.client.localAddress(), out.unsafe().localAddress());
      assertEquals(pair.client.remoteAddress(), out.unsafe().remoteAddress());
      assertFalse(out.metadata().hasDisconnect());
      assertTrue(out.isRegistered() && out.isActive());
      assertTrue(out.toString().endsWith("(stream " + out.streamId() + ", opened here)"), out.toString());
      assertTrue(in.toString().endsWith("(stream " + in.streamId() + ", opened by peer)"), in.toString());
      assertSame(out.closeFuture(), out.closeFuture());
      assertFalse(out.closeFuture().isDone());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void aStreamIsNeitherBoundNorConnectedNorRegisteredByHand(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      Collect c = Collect.observing();
      StreamChannel out = pair.open(c);
      assertInstanceOf(UnsupportedOperationException.class, out.bind(new InetSocketAddress(0)).cause());
      assertInstanceOf(UnsupportedOperationException.class, out.connect(new InetSocketAddress(0)).cause());
      assertInstanceOf(UnsupportedOperationException.class,
          out.connect(new InetSocketAddress(0), new InetSocketAddress(0)).cause());
      io.netty.channel.ChannelPromise register = out.newPromise();
      out.unsafe().register(out.eventLoop(), register);
      assertInstanceOf(UnsupportedOperationException.class, register.cause());
      assertTrue(out.isOpen());
      ChannelFuture deregistered = out.deregister();
      pair.client.runPendingTasks();
      assertTrue(deregistered.isSuccess());
      assertFalse(out.isRegistered());
      ChannelFuture disconnected = out.disconnect();
      pair.client.runPendingTasks();
      assertTrue(disconnected.isSuccess(), "a disconnect is a close");
      assertFalse(out.isOpen());
      assertEquals(List.of("active"), c.events(), "deregistered before the close: no inactive event");
      assertTrue(out.close().isSuccess(), "a second close succeeds at once");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void writesAreRefusedWithTheirReason(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      StreamChannel out = pair.open(Collect.observing());
      assertFalse(out.isOutputShutdown() || out.isInputShutdown() || out.isShutdown());
      assertInstanceOf(IllegalArgumentException.class, out.writeAndFlush("not bytes").cause());
      assertTrue(out.shutdownOutput().isSuccess());
      assertTrue(out.isOpen() && out.isOutputShutdown());
      int written = pair.client.outboundMessages().size();
      assertTrue(out.shutdownOutput().isSuccess(), "a second half-close succeeds");
      assertEquals(written, pair.client.outboundMessages().size(), "and writes no second end");
      ByteBuf late = Unpooled.wrappedBuffer(new byte[] {1});
      assertInstanceOf(ChannelOutputShutdownException.class, out.writeAndFlush(late).cause());
      assertEquals(0, late.refCnt(), "released");
      out.close();
      pair.client.runPendingTasks();
      ByteBuf closed = Unpooled.wrappedBuffer(new byte[] {1});
      assertInstanceOf(ClosedChannelException.class, out.writeAndFlush(closed).cause());
      assertEquals(0, closed.refCnt());
      assertInstanceOf(ClosedChannelException.class, out.shutdownOutput().cause());
      assertTrue(out.isInputShutdown() && out.isOutputShutdown() && out.isShutdown());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void aCancelledPromiseNeitherWritesNorCloses(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      StreamChannel out = pair.open(Collect.observing());
      ByteBuf data = Unpooled.wrappedBuffer(new byte[] {1, 2, 3});
      ChannelPromise cancelled = out.newPromise();
      cancelled.cancel(false);
      out.writeAndFlush(data, cancelled);
      assertEquals(0, data.refCnt(), "released, not queued");
      ChannelPromise closeCancelled = out.newPromise();
      closeCancelled.cancel(false);
      out.close(closeCancelled);
      pair.pump();
      assertTrue(out.isOpen());
      assertEquals(0, pair.serverStreams.get(0).collect().received().length);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void eachResetAnswersWithItsFuture(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      StreamChannel first = pair.open(Collect.observing());
      assertTrue(first.reset().isSuccess());
      StreamChannel second = pair.open(Collect.observing());
      ChannelPromise promise = second.newPromise();
      assertSame(promise, second.reset(promise));
      assertTrue(promise.isSuccess());
      StreamChannel third = pair.open(Collect.observing());
      assertTrue(third.reset(new ClosedChannelException()).isSuccess());
      pair.pump();
      assertFalse(first.isOpen() || second.isOpen() || third.isOpen());
      assertTrue(first.isOutputShutdown() && first.isInputShutdown(), "a closed stream is shut both ways");
      assertFalse(pair.serverStreams.stream().anyMatch(s -> s.stream().isOpen()), "each reset reached the peer");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void anEmptyWriteSucceedsAndSendsNoFrame(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      StreamChannel out = pair.open(Collect.observing());
      int written = pair.client.outboundMessages().size();
      assertTrue(out.writeAndFlush(Unpooled.EMPTY_BUFFER).isSuccess());
      assertEquals(written, pair.client.outboundMessages().size());
    }
  }

  /** Answers the first read with writes of {@code sizes} bytes and closes its stream at once, inside the connection's read. */
  private static final class AnswerAndClose extends ChannelInboundHandlerAdapter {
    final List<ChannelFuture> answers = new ArrayList<>();
    private final int[] sizes;

    AnswerAndClose(int... sizes) {
      this.sizes = sizes;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ReferenceCountUtil.release(msg);
      for (int size : sizes) {
        answers.add(ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[size])));
      }
      ctx.close();
    }
  }

  /** A stream opened from the client whose first byte {@code server} answers and closes on. */
  private static Collect answeredAndClosed(SessionPair pair) {
    Collect opener = Collect.observing();
    pair.open(opener).writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1}));
    pair.pump();
    return opener;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void aWriteHandedToTheConnectionBeforeACloseSucceeds(Muxer muxer) {
    AnswerAndClose server = new AnswerAndClose(1);
    try (SessionPair pair = new SessionPair(muxer, ch -> ch.pipeline().addLast(server))) {
      Collect opener = answeredAndClosed(pair);
      ChannelFuture answer = server.answers.get(0);
      assertTrue(answer.isSuccess(), "its bytes went before the stream's end: " + answer.cause());
      assertArrayEquals(new byte[1], opener.received());
      assertTrue(opener.exceptions().isEmpty(), "ended, not reset");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void aCloseWithBytesUnsentResetsAndFailsEvenTheWritesAlreadyHandedOn(Muxer muxer) {
    // 100 KiB fill the connection (its high water mark is 64 KiB): the next write waits in the stream.
    AnswerAndClose server = new AnswerAndClose(100 * 1024, 10);
    try (SessionPair pair = new SessionPair(muxer, ch -> ch.pipeline().addLast(server))) {
      Collect opener = answeredAndClosed(pair);
      for (ChannelFuture answer : server.answers) {
        assertInstanceOf(ClosedChannelException.class, answer.cause(), "a reset stream's bytes may be dropped");
      }
      assertInstanceOf(StreamResetException.class, opener.exceptions().get(0));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void shuttingInputDropsWhatCameAndWhatComesAndTheStreamStaysOpen(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer, ch -> ch.config().setAutoRead(false))) {
      StreamChannel out = pair.open(Collect.observing());
      CollectedStream accepted = pair.serverStreams.get(0);
      out.writeAndFlush(Unpooled.wrappedBuffer(new byte[300 * 1024]));
      pair.pump();
      assertFalse(accepted.stream().isInputShutdown());
      assertTrue(accepted.stream().shutdownInput().isSuccess());
      assertTrue(accepted.stream().isInputShutdown());
      assertTrue(accepted.stream().shutdownInput().isSuccess(), "twice is once");
      out.writeAndFlush(Unpooled.wrappedBuffer(new byte[2 * 1024 * 1024]));
      pair.pump();
      accepted.stream().read();
      pair.pump();
      assertEquals(0, accepted.collect().received().length, "nothing goes up once the input is shut");
      assertTrue(out.isWritable(), "every dropped byte gave its credit back");
      accepted.stream().writeAndFlush(Unpooled.wrappedBuffer(new byte[] {9}));
      pair.pump();
      assertTrue(accepted.stream().isOpen());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void shutdownEndsBothWays(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      StreamChannel out = pair.open(Collect.observing());
      pair.serverStreams.get(0).stream().config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
      out.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
      assertFalse(out.isShutdown());
      ChannelFuture both = out.shutdown();
      pair.pump();
      assertTrue(both.isSuccess());
      assertTrue(out.isInputShutdown() && out.isOutputShutdown() && out.isShutdown());
      assertTrue(pair.serverStreams.get(0).stream().isInputShutdown());
    }
  }

  @Test
  void aStreamsConfigKnowsHalfClosureAndTakesOnlyExtendedReadHandles() {
    try (SessionPair pair = new SessionPair(Muxer.yamux(YamuxConfig.tentacle()))) {
      StreamChannel out = pair.open(Collect.observing());
      assertEquals(Boolean.FALSE, out.config().getOptions().get(ChannelOption.ALLOW_HALF_CLOSURE));
      assertSame(out.config(), out.config().setAllowHalfClosure(true));
      assertTrue(out.config().isAllowHalfClosure());
      assertEquals(Boolean.TRUE, out.config().getOption(ChannelOption.ALLOW_HALF_CLOSURE));
      assertEquals(Boolean.TRUE, out.config().getOptions().get(ChannelOption.ALLOW_HALF_CLOSURE));
      assertSame(out.config(), out.config().setAutoClose(false).setWriteSpinCount(3)
          .setAllocator(out.alloc()).setMessageSizeEstimator(out.config().getMessageSizeEstimator())
          .setWriteBufferWaterMark(new WriteBufferWaterMark(10, 20)).setAutoRead(true));
      assertEquals(20, out.config().getWriteBufferHighWaterMark());
      assertEquals(3, out.config().getWriteSpinCount());
      RecvByteBufAllocator plain = () -> null;
      assertThrows(IllegalArgumentException.class, () -> out.config().setRecvByteBufAllocator(plain));
      assertSame(out.config(), out.config().setRecvByteBufAllocator(out.config().getRecvByteBufAllocator()));
      assertFalse(out.config().setOption(ChannelOption.SO_BACKLOG, 3), "not a stream's option");
    }
  }

  @Test
  void writabilityCountsTheBytesBetweenItsMarks() {
    try (SessionPair pair = new SessionPair(Muxer.yamux(YamuxConfig.tentacle()))) {
      StreamChannel out = pair.open(Collect.observing());
      out.config().setWriteBufferWaterMark(new WriteBufferWaterMark(100, 200));
      assertEquals(201, out.bytesBeforeUnwritable());
      assertEquals(0, out.bytesBeforeWritable());
      out.write(Unpooled.wrappedBuffer(new byte[150]));
      assertEquals(51, out.bytesBeforeUnwritable());
      assertEquals(0, out.bytesBeforeWritable(), "over the low mark, but writable: nothing to drain");
      out.write(Unpooled.wrappedBuffer(new byte[100]));
      assertFalse(out.isWritable());
      assertEquals(0, out.bytesBeforeUnwritable());
      assertEquals(151, out.bytesBeforeWritable());
      out.flush();
      assertTrue(out.isWritable());
      assertEquals(0, out.bytesBeforeWritable());
    }
  }

  @Test
  void aLowWaterMarkOfZeroIsReachedWhenEveryByteLeft() {
    try (SessionPair pair = new SessionPair(Muxer.yamux(YamuxConfig.tentacle()))) {
      StreamChannel out = pair.open(Collect.observing());
      out.config().setWriteBufferWaterMark(new WriteBufferWaterMark(0, 10));
      out.write(Unpooled.wrappedBuffer(new byte[20]));
      assertFalse(out.isWritable());
      assertEquals(21, out.bytesBeforeWritable());
      out.flush();
      assertTrue(out.isWritable(), "nothing waits: under no mark, yet writable");
    }
  }

  @Test
  void aStreamUnwritableOnlyForItsConnectionHasNoBytesToDrain() {
    try (SessionPair pair = new SessionPair(Muxer.yamux(YamuxConfig.tentacle()))) {
      StreamChannel out = pair.open(Collect.observing());
      out.config().setWriteBufferWaterMark(new WriteBufferWaterMark(100, 200));
      pair.client.unsafe().outboundBuffer().setUserDefinedWritability(1, false);
      pair.client.runPendingTasks();
      assertFalse(out.isWritable());
      assertEquals(0, out.bytesBeforeWritable(), "never negative: its own queue is under the low mark");
      assertEquals(0, out.bytesBeforeUnwritable());
      pair.client.unsafe().outboundBuffer().setUserDefinedWritability(1, true);
      pair.client.runPendingTasks();
      assertTrue(out.isWritable());
    }
  }

  @Test
  void theBootstrapForgetsWhatIsSetToNullAndOpensFromAnyThread() throws Exception {
    EventLoopGroup group = new DefaultEventLoopGroup(2);
    try {
      LocalAddress address = new LocalAddress("streams-" + System.nanoTime());
      List<CollectedStream> accepted = new java.util.concurrent.CopyOnWriteArrayList<>();
      Channel server = new ServerBootstrap().group(group).channel(LocalServerChannel.class)
          .childHandler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              ch.pipeline().addLast(YamuxHandler.server(YamuxConfig.tentacle(), CollectedStream.into(accepted)));
            }
          }).bind(address).sync().channel();
      Channel client = new Bootstrap().group(group).channel(LocalChannel.class)
          .handler(YamuxHandler.client(YamuxConfig.tentacle(), null)).connect(address).sync().channel();
      AttributeKey<String> key = AttributeKey.valueOf("bootstrapTest");
      Collect c = Collect.observing();
      StreamChannelBootstrap bootstrap = new StreamChannelBootstrap(client).handler(c)
          .option(ChannelOption.AUTO_READ, false).option(ChannelOption.AUTO_READ, null)
          .attr(key, "x").attr(key, null);
      assertFalse(client.eventLoop().inEventLoop());
      StreamChannel s = bootstrap.open().get(GUARD_MINUTES, TimeUnit.MINUTES);
      assertTrue(s.config().isAutoRead(), "the option was taken back");
      assertNull(s.attr(key).get(), "the attribute was taken back");
      s.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1, 2, 3})).get(GUARD_MINUTES, TimeUnit.MINUTES);
      s.shutdownOutput().get(GUARD_MINUTES, TimeUnit.MINUTES);
      // The muxer leaves the connection when it goes inactive, which may come after close's future.
      CountDownLatch inactive = new CountDownLatch(1);
      client.pipeline().addLast(new ChannelInboundHandlerAdapter() {
        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
          inactive.countDown();
        }
      });
      client.close().sync();
      assertTrue(inactive.await(GUARD_MINUTES, TimeUnit.MINUTES));
      server.close().sync();
      assertArrayEquals(new byte[] {1, 2, 3}, accepted.get(0).collect().received());
      Future<StreamChannel> none = new StreamChannelBootstrap(client).open();
      assertInstanceOf(IllegalStateException.class, none.await().cause(), "no muxer on a closed connection");
    } finally {
      group.shutdownGracefully(0, 0, TimeUnit.SECONDS).sync();
    }
  }

  @Test
  void aWriteFromAnotherThreadCountsAgainstTheHighWaterMarkAsSoonAsItIsQueued() throws Exception {
    EventLoopGroup group = new DefaultEventLoopGroup(1);
    try {
      LocalAddress address = new LocalAddress("streams-" + System.nanoTime());
      new ServerBootstrap().group(group).channel(LocalServerChannel.class)
          .childHandler(YamuxHandler.server(YamuxConfig.tentacle(), Collect.observing())).bind(address).sync();
      Channel client = new Bootstrap().group(group).channel(LocalChannel.class)
          .handler(YamuxHandler.client(YamuxConfig.tentacle(), null)).connect(address).sync().channel();
      StreamChannel s = new StreamChannelBootstrap(client).handler(Collect.observing()).open()
          .get(GUARD_MINUTES, TimeUnit.MINUTES);
      s.config().setWriteBufferWaterMark(new WriteBufferWaterMark(10, 20));
      List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
      s.pipeline().addFirst(new ChannelDuplexHandler() {
        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
          heard.add("writable=" + ctx.channel().isWritable());
          ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
          heard.add("write");
          ctx.write(msg, promise);
        }
      });
      CountDownLatch blocked = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      client.eventLoop().execute(() -> {
        blocked.countDown();
        try {
          release.await(GUARD_MINUTES, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      assertTrue(blocked.await(GUARD_MINUTES, TimeUnit.MINUTES));
      ChannelFuture written = s.writeAndFlush(Unpooled.wrappedBuffer(new byte[100]));
      assertFalse(s.isWritable(), "counted while it waits for the event loop");
      release.countDown();
      written.get(GUARD_MINUTES, TimeUnit.MINUTES);
      client.eventLoop().submit(() -> { }).get(GUARD_MINUTES, TimeUnit.MINUTES); // what the write queued behind it
      assertTrue(s.isWritable(), "sent: nothing counted any more");
      assertEquals(List.of("writable=false", "write"), heard.subList(0, 2),
          "the stream's pipeline heard it before the write reached it");
      assertEquals("writable=true", heard.get(heard.size() - 1));
    } finally {
      group.shutdownGracefully(0, 0, TimeUnit.SECONDS).sync();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void anInboundStreamHandlerThatIsNotSharableIsRefusedWhenTheMuxerIsAdded(Muxer muxer) {
    EmbeddedChannel ch = new EmbeddedChannel();
    ch.pipeline().addLast(muxer.server().apply(new ChannelInboundHandlerAdapter()));
    Exception e = assertThrows(ChannelPipelineException.class, ch::checkException);
    assertInstanceOf(IllegalArgumentException.class, e.getCause());
    assertTrue(e.getCause().getMessage().contains("make it @Sharable"), e.getCause().getMessage());
    ch.finishAndReleaseAll();
  }

  @Test
  void aResetCarriesItsStreamIdAndNoStackTrace() {
    StreamResetException e = new StreamResetException(7);
    assertEquals(7, e.streamId());
    assertEquals("stream 7 reset by the peer", e.getMessage());
    assertEquals(0, e.getStackTrace().length);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void everyOutboundCallOfTheChannelGoesThroughThePipelineAndAnswersWithItsFuture(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      StreamChannel a = pair.open(Collect.observing());
      StreamChannel b = pair.open(Collect.observing());
      InetSocketAddress somewhere = new InetSocketAddress("127.0.0.1", 1);
      for (ChannelFuture refused : List.of(a.bind(somewhere), a.connect(somewhere), a.connect(somewhere, somewhere),
          a.bind(somewhere, a.newPromise()), a.connect(somewhere, a.newPromise()),
          a.connect(somewhere, somewhere, a.newPromise()))) {
        assertInstanceOf(UnsupportedOperationException.class, refused.cause());
      }
      assertInstanceOf(IllegalArgumentException.class, a.write("text").cause());
      assertInstanceOf(IllegalArgumentException.class, a.write("text", a.newPromise()).cause());
      assertInstanceOf(IllegalArgumentException.class, a.writeAndFlush("text", a.newPromise()).cause());
      assertTrue(a.newSucceededFuture().isSuccess());
      IllegalStateException why = new IllegalStateException("why");
      assertSame(why, a.newFailedFuture(why).cause());
      assertSame(a, a.newProgressivePromise().channel());
      assertTrue(a.voidPromise().isVoid());
      assertSame(a, a.read());
      assertSame(a, a.flush());
      // Identity: the stream's id names its connection and its stream id, and orders by them.
      assertNotEquals(a.id(), b.id());
      assertNotEquals(a.id().hashCode(), b.id().hashCode());
      assertEquals(Long.signum(a.streamId() - b.streamId()), Integer.signum(a.id().compareTo(b.id())));
      assertEquals(Long.signum(a.streamId() - b.streamId()), Integer.signum(a.compareTo(b)));
      assertEquals(0, a.compareTo(a));
      assertEquals(a.id().hashCode(), a.hashCode());
      ChannelFuture deregistered = b.deregister();
      pair.client.runPendingTasks();
      assertTrue(deregistered.isSuccess());
      assertFalse(b.isRegistered());
      assertTrue(b.disconnect().isSuccess(), "a stream disconnects by closing");
      assertFalse(b.isOpen());
      ChannelPromise closed = a.newPromise();
      assertSame(closed, a.close(closed));
      pair.client.runPendingTasks();
      assertTrue(closed.isSuccess());
      assertTrue(a.deregister(a.newPromise()).isSuccess(), "a closed stream is deregistered already");
      assertTrue(a.disconnect(a.newPromise()).isSuccess());
      pair.pump();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void theConfigTakesHalfClosureAndNettysOptionsAndRefusesWhatItCannotHold(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      StreamChannel s = pair.open(Collect.observing());
      assertTrue(s.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true));
      assertEquals(Boolean.TRUE, s.config().getOption(ChannelOption.ALLOW_HALF_CLOSURE));
      assertTrue(s.config().setOption(ChannelOption.WRITE_SPIN_COUNT, 7));
      assertEquals(7, s.config().getOption(ChannelOption.WRITE_SPIN_COUNT));
      assertEquals(Boolean.TRUE, s.config().getOptions().get(ChannelOption.ALLOW_HALF_CLOSURE));
      assertFalse(s.config().setOption(ChannelOption.SO_LINGER, 1), "a socket's option is not a stream's");
      assertThrows(IllegalArgumentException.class, () -> s.config().setOption(ChannelOption.WRITE_SPIN_COUNT, 0));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void aBodyUnder1KiBIsCopiedBehindItsHeaderAndALargerOneFollowsIt(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      StreamChannel s = pair.open(Collect.observing());
      pair.pump();
      for (int size : new int[] {1, 1023, 1024, 4096}) {
        s.writeAndFlush(Unpooled.wrappedBuffer(new byte[size]));
        int writes = 0;
        for (Object msg; (msg = pair.client.readOutbound()) != null; writes++) {
          pair.server.writeInbound(msg);
        }
        assertEquals(size < 1024 ? 1 : 2, writes, size + " bytes");
      }
      assertEquals(1 + 1023 + 1024 + 4096, pair.serverStreams.get(0).collect().received().length);
    }
  }
}
