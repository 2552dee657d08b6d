package io.secio.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.secio.testsupport.Collect;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a connection keeps of a stream that closed, on every muxer ({@code docs/STREAMS.md} §3): a
 * stream with bytes waiting to go while its connection is unwritable (the peer does not read) sits
 * in the connection's send queue; when the peer resets it, it leaves that queue at once, so a peer
 * that opens and resets streams without reading pins none of them.
 */
class StreamMemoryTest {
  static Stream<Muxer> muxers() {
    return Muxer.all();
  }

  /**
   * On each stream the peer opens, writes a few bytes at once (as a protocol's header) and keeps only
   * a weak hold of it, and how the write ended (a write's future would hold its stream).
   */
  @ChannelHandler.Sharable
  private static final class WritesOnOpen extends ChannelInboundHandlerAdapter {
    final List<WeakReference<Channel>> opened = new ArrayList<>();
    final List<String> writes = new ArrayList<>();

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      opened.add(new WeakReference<>(ctx.channel()));
      int write = writes.size();
      writes.add("waiting");
      ChannelFuture written = ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {'/', 'p', '\n'}));
      written.addListener(f -> writes.set(write, f.isSuccess() ? "written" : f.cause().getClass().getSimpleName()));
      ctx.fireChannelActive();
    }
  }

  /** Holds every frame written to the connection: its socket takes nothing (the peer reads nothing). */
  private static final class SocketTakesNothing extends ChannelOutboundHandlerAdapter {
    final List<ChannelPromise> promises = new ArrayList<>();

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
      ReferenceCountUtil.release(msg);
      promises.add(promise);
    }
  }

  /** Whether nothing holds the stream any more: a few full collections clear a weak reference to anything unreachable. */
  private static boolean collected(WeakReference<Channel> stream) {
    for (int i = 0; i < 10 && stream.get() != null; i++) {
      System.gc();
    }
    return stream.get() == null;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void aStreamResetWhileItsBytesWaitForAnUnwritableConnectionIsFreedAtOnce(Muxer muxer) {
    WritesOnOpen streams = new WritesOnOpen();
    try (SessionPair pair = new SessionPair(muxer.client().apply(null), muxer.server().apply(streams))) {
      // The listener's connection is unwritable: its peer reads nothing. Control frames still go.
      pair.server.unsafe().outboundBuffer().setUserDefinedWritability(1, false);
      pair.server.runPendingTasks();
      assertFalse(pair.server.isWritable());
      List<CollectedStream> ours = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        Collect c = Collect.observing();
        Future<StreamChannel> opened = new StreamChannelBootstrap(pair.client).handler(c).open();
        pair.pump();
        ours.add(new CollectedStream(opened.getNow(), c));
      }
      assertEquals(3, streams.opened.size());
      Channel kept = streams.opened.get(1).get();
      assertNotNull(kept);
      assertTrue(kept.isOpen());
      assertFalse(kept.isWritable());
      kept = null;
      ours.get(0).stream().reset();
      ours.get(2).stream().reset();
      pair.pump();
      assertTrue(collected(streams.opened.get(0)), "the first stream, reset, is gone");
      assertTrue(collected(streams.opened.get(2)), "the last stream, reset, is gone");
      assertFalse(collected(streams.opened.get(1)), "the stream still open is held");
      // Once the connection is writable, the stream still open sends what it waited with.
      pair.server.unsafe().outboundBuffer().setUserDefinedWritability(1, true);
      pair.server.runPendingTasks();
      pair.pump();
      assertTrue(pair.server.isWritable());
      assertEquals("/p\n", new String(ours.get(1).collect().received(), StandardCharsets.US_ASCII));
      assertEquals(0, ours.get(0).collect().received().length);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void aStreamResetWhileItsBytesWaitInTheConnectionForTheSocketIsFreedAtOnce(Muxer muxer) {
    WritesOnOpen streams = new WritesOnOpen();
    SocketTakesNothing socket = new SocketTakesNothing();
    EmbeddedChannel server = new EmbeddedChannel(socket, muxer.server().apply(streams));
    try (SessionPair pair = new SessionPair(muxer.client().apply(null), new ChannelInboundHandlerAdapter())) {
      Future<StreamChannel> ours = new StreamChannelBootstrap(pair.client).handler(Collect.observing()).open();
      pair.client.runPendingTasks();
      deliver(pair.client, server);
      assertEquals(1, streams.opened.size());
      assertEquals(List.of("waiting"), streams.writes, "its bytes went to the connection, which has not sent them");
      ours.getNow().reset();
      deliver(pair.client, server);
      assertTrue(collected(streams.opened.get(0)), "the frame the connection holds keeps nothing of the stream");
      assertEquals(List.of("ClosedChannelException"), streams.writes, "a reset stream's bytes may never go");
      assertTrue(server.isActive());
      socket.promises.forEach(ChannelPromise::trySuccess);
    } finally {
      server.finishAndReleaseAll();
    }
  }

  private static void deliver(EmbeddedChannel from, EmbeddedChannel to) {
    for (Object msg; (msg = from.readOutbound()) != null; ) {
      to.writeInbound(msg);
    }
    to.runPendingTasks();
  }

  /** Records, in order, the streams the peer opens becoming active and inactive. */
  @ChannelHandler.Sharable
  private static class Lifecycle extends ChannelInboundHandlerAdapter {
    final List<String> events = new ArrayList<>();

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      events.add("active " + ((StreamChannel) ctx.channel()).streamId());
      ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      events.add("inactive " + ((StreamChannel) ctx.channel()).streamId());
      ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      // the peer's reset: expected
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void aStreamThePeerResetsIsInactiveBeforeTheNextFrameOfTheSameReadIsHandled(Muxer muxer) {
    Lifecycle lifecycle = new Lifecycle();
    try (SessionPair pair = new SessionPair(muxer.client().apply(null), muxer.server().apply(lifecycle))) {
      Future<StreamChannel> first = new StreamChannelBootstrap(pair.client).handler(Collect.observing()).open();
      pair.client.runPendingTasks();
      first.getNow().reset();
      new StreamChannelBootstrap(pair.client).handler(Collect.observing()).open();
      pair.deliverInOneRead(pair.client, pair.server);
      long a = muxer.firstClientId();
      long b = a + (muxer.firstClientId() == muxer.firstServerId() ? 1 : 2);
      // Not at the end of the read: a peer that opens and resets streams without end would make the
      // node keep every one of them until then.
      assertEquals(List.of("active " + a, "inactive " + a, "active " + b), lifecycle.events);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void aMuxerRemovedInTheMiddleOfAReadStillEndsItsStreamsWithTheirEvents(Muxer muxer) {
    Lifecycle lifecycle = new Lifecycle() {
      @Override
      public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg);
        ctx.channel().parent().pipeline().removeFirst(); // no read complete reaches it any more
      }
    };
    try (SessionPair pair = new SessionPair(muxer.client().apply(null), muxer.server().apply(lifecycle))) {
      Future<StreamChannel> ours = new StreamChannelBootstrap(pair.client).handler(Collect.observing()).open();
      pair.client.runPendingTasks();
      ours.getNow().writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1}));
      pair.deliverInOneRead(pair.client, pair.server);
      long id = muxer.firstClientId();
      assertEquals(List.of("active " + id, "inactive " + id), lifecycle.events);
    }
  }
}
