package io.secio.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelConfig;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.ChannelInputShutdownReadComplete;
import io.secio.testsupport.Collect;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * How a stream's received bytes go up its pipeline, on every muxer, as Netty's HTTP/2 child reads: a
 * read delivers what waits while the pipeline's read handle says go on, with one read complete for
 * the connection's whole read burst (or at once when the read was asked for outside one); with
 * auto-read off nothing moves until {@code read()}, and a {@code read()} asked for during a read is
 * taken up after it; the peer's end closes the stream once everything before it went up, whether or
 * not the stream reads; and when the connection ends in order, writes still waiting fail first, then
 * every byte never read goes up, then the stream closes.
 */
class StreamReadsTest {
  /** Each data frame's body: over half its buffer, so each stays a chunk of its own (not merged). */
  private static final int FRAME = 2000;

  static Stream<Muxer> muxers() {
    return Muxer.all();
  }

  /** Records a stream's reads (their sizes), read completes, input events and its end, in order. */
  private static final class Reads extends ChannelInboundHandlerAdapter {
    final List<String> events = new ArrayList<>();
    /** Whether its first read asks for another read, as it is read. */
    private boolean askDuringFirstRead;
    /** Whether it turns auto-read off at each read complete (before the pipeline's head reads on). */
    private final boolean stopAutoReadAtReadComplete;

    Reads() {
      this(false, false);
    }

    Reads(boolean askDuringFirstRead, boolean stopAutoReadAtReadComplete) {
      this.askDuringFirstRead = askDuringFirstRead;
      this.stopAutoReadAtReadComplete = stopAutoReadAtReadComplete;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      events.add("read " + ((ByteBuf) msg).readableBytes());
      ((ByteBuf) msg).release();
      if (askDuringFirstRead) {
        askDuringFirstRead = false;
        ctx.read();
      }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      events.add("readComplete");
      if (stopAutoReadAtReadComplete) {
        ctx.channel().config().setAutoRead(false);
      }
      ctx.fireChannelReadComplete();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof ChannelInputShutdownEvent) {
        events.add("inputShutdown");
      } else if (evt instanceof ChannelInputShutdownReadComplete) {
        events.add("inputShutdownReadComplete");
      }
      ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      events.add("inactive");
      ctx.fireChannelInactive();
    }

    /** The events so far, forgetting them. */
    List<String> take() {
      List<String> taken = List.copyOf(events);
      events.clear();
      return taken;
    }
  }

  /** A pair whose server streams get {@code init}, then {@code reads}. */
  private static SessionPair pair(Muxer muxer, Reads reads, Consumer<Channel> init) {
    return new SessionPair(muxer, ch -> {
      init.accept(ch);
      ch.pipeline().addLast(reads);
    });
  }

  /** Sends {@code frames} data frames of {@link #FRAME} bytes on {@code out}, each flushed on its own. */
  private static void send(StreamChannel out, int frames) {
    for (int i = 0; i < frames; i++) {
      out.writeAndFlush(Unpooled.wrappedBuffer(new byte[FRAME]));
    }
  }

  /** Opens a stream from the client that sends two frames and its end; returns the server's end of it. */
  private static StreamChannel twoFramesAndTheEndUnread(SessionPair pair) {
    StreamChannel out = pair.open(Collect.observing());
    send(out, 2);
    out.shutdownOutput();
    pair.pump();
    return pair.serverStreams.get(0).stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void framesOfOneConnectionReadGoUpWithOneReadCompleteAtItsEnd(Muxer muxer) {
    Reads reads = new Reads();
    try (SessionPair pair = pair(muxer, reads, ch -> {})) {
      StreamChannel out = pair.open(Collect.observing());
      assertEquals(List.of(), reads.take());
      send(out, 3);
      pair.deliverInOneRead(pair.client, pair.server);
      assertEquals(List.of("read 2000", "read 2000", "read 2000", "readComplete"), reads.take());
      send(out, 1);
      pair.pump();
      assertEquals(List.of("read 2000", "readComplete"), reads.take());
    }
  }

  @SuppressWarnings("deprecation") // setMaxMessagesPerRead: the config's own, as the allocator's handle reads it
  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void theReadHandleCountsEachDeliveryAndStopsAReadAtItsMaximum(Muxer muxer) {
    Reads reads = new Reads();
    try (SessionPair pair = pair(muxer, reads, ch -> {})) {
      StreamChannel out = pair.open(Collect.observing());
      ChannelConfig config = pair.serverStreams.get(0).stream().config();
      assertSame(config, config.setMaxMessagesPerRead(2));
      send(out, 3);
      pair.deliverInOneRead(pair.client, pair.server);
      // Each frame of the burst is a read of its own, counted afresh: none reaches the maximum.
      assertEquals(List.of("read 2000", "read 2000", "read 2000", "readComplete"), reads.take());

      config.setAutoRead(false);
      send(out, 3);
      pair.pump();
      assertEquals(List.of("read 2000", "readComplete"), reads.take(), "auto-read off: the read asked for before, only");
      config.setMaxMessagesPerRead(1);
      config.setAutoRead(true); // reads outside the connection's read: each read takes one, and completes at once
      assertEquals(List.of("read 2000", "readComplete", "read 2000", "readComplete"), reads.take());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void turningAutoReadOnDeliversWhatWaitsInOneReadCompletedAtOnce(Muxer muxer) {
    Reads reads = new Reads();
    try (SessionPair pair = pair(muxer, reads, ch -> ch.config().setAutoRead(false))) {
      StreamChannel out = pair.open(Collect.observing());
      send(out, 2);
      pair.pump();
      assertEquals(List.of(), reads.take());
      StreamChannel accepted = pair.serverStreams.get(0).stream();
      accepted.config().setAutoRead(true);
      assertEquals(List.of("read 2000", "read 2000", "readComplete"), reads.take(),
          "no connection read to wait for: the read completes now");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void withAutoReadOffEachReadTakesOneChunkAndAReadAskedForMeanwhileFollows(Muxer muxer) {
    Reads reads = new Reads(true, false); // its first read asks for the next: taken up once the read completes
    try (SessionPair pair = pair(muxer, reads, ch -> ch.config().setAutoRead(false))) {
      StreamChannel out = pair.open(Collect.observing());
      send(out, 4);
      pair.pump();
      StreamChannel accepted = pair.serverStreams.get(0).stream();
      accepted.read();
      assertEquals(List.of("read 2000", "readComplete", "read 2000", "readComplete"), reads.take());
      accepted.read();
      assertEquals(List.of("read 2000", "readComplete"), reads.take());
      accepted.read();
      accepted.read(); // nothing waits: the second read asks for the next frame as the first did
      assertEquals(List.of("read 2000", "readComplete"), reads.take());
      send(out, 1);
      pair.pump();
      assertEquals(List.of("read 2000", "readComplete"), reads.take(), "the read still asked for takes it");
      send(out, 1);
      pair.pump();
      assertEquals(List.of(), reads.take());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void aStreamThatStopsAutoReadAtAReadCompleteGetsNothingMoreUntilItReads(Muxer muxer) {
    Reads reads = new Reads(false, true);
    try (SessionPair pair = pair(muxer, reads, ch -> {})) {
      StreamChannel out = pair.open(Collect.observing());
      send(out, 2);
      pair.deliverInOneRead(pair.client, pair.server);
      assertEquals(List.of("read 2000", "read 2000", "readComplete"), reads.take());
      send(out, 1);
      pair.pump();
      assertEquals(List.of(), reads.take(), "no read asked for");
      pair.serverStreams.get(0).stream().read();
      assertEquals(List.of("read 2000", "readComplete"), reads.take());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void aReadAskedForDuringABurstIsTakenUpAfterItsReadComplete(Muxer muxer) {
    Reads reads = new Reads(true, true);
    try (SessionPair pair = pair(muxer, reads, ch -> {})) {
      StreamChannel out = pair.open(Collect.observing());
      send(out, 2);
      pair.deliverInOneRead(pair.client, pair.server);
      assertEquals(List.of("read 2000", "read 2000", "readComplete"), reads.take());
      send(out, 2);
      pair.pump();
      assertEquals(List.of("read 2000", "readComplete"), reads.take(), "the one read asked for, and no more");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void thePeersEndClosesAStreamThatReadsNothingAndHasNothingWaiting(Muxer muxer) {
    Reads reads = new Reads();
    try (SessionPair pair = pair(muxer, reads, ch -> ch.config().setAutoRead(false))) {
      StreamChannel out = pair.open(Collect.observing());
      out.shutdownOutput();
      pair.pump();
      assertEquals(List.of("inactive"), reads.take(), "ended: no read complete without a read");
      assertFalse(pair.serverStreams.get(0).stream().isOpen());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void thePeersEndClosesAStreamThatReadEverythingBeforeItAndAsksForNoMore(Muxer muxer) {
    Reads reads = new Reads();
    try (SessionPair pair = pair(muxer, reads, ch -> ch.config().setAutoRead(false))) {
      StreamChannel out = pair.open(Collect.observing());
      send(out, 1);
      pair.pump();
      StreamChannel accepted = pair.serverStreams.get(0).stream();
      accepted.read();
      assertEquals(List.of("read 2000", "readComplete"), reads.take());
      out.shutdownOutput();
      pair.pump();
      assertEquals(List.of("inactive"), reads.take());
      assertFalse(accepted.isOpen());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void thePeersEndClosesAStreamOnceItReadTheLastBytesBeforeIt(Muxer muxer) {
    Reads reads = new Reads();
    try (SessionPair pair = pair(muxer, reads, ch -> ch.config().setAutoRead(false))) {
      StreamChannel accepted = twoFramesAndTheEndUnread(pair);
      assertEquals(List.of(), reads.take());
      accepted.read();
      assertEquals(List.of("read 2000", "readComplete"), reads.take());
      accepted.read();
      pair.pump();
      assertEquals(List.of("read 2000", "readComplete", "inactive"), reads.take());
      assertFalse(accepted.isOpen());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void withHalfClosureThePeersEndThatCameWithItsLastBytesIsHeardOnce(Muxer muxer) {
    Reads reads = new Reads();
    try (SessionPair pair = pair(muxer, reads, ch -> ch.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true))) {
      StreamChannel out = pair.open(Collect.observing());
      send(out, 1);
      out.shutdownOutput();
      pair.deliverInOneRead(pair.client, pair.server); // the bytes and the end in one read: a read complete follows
      pair.pump();
      List<String> events = reads.take();
      assertEquals(List.of("read 2000"), events.stream().filter(e -> e.startsWith("read ")).toList());
      assertEquals(1, events.stream().filter("inputShutdown"::equals).count(), events.toString());
      assertEquals(1, events.stream().filter("inputShutdownReadComplete"::equals).count(), events.toString());
      assertTrue(pair.serverStreams.get(0).stream().isOpen(), "its own output is still open");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void closingTheConnectionFailsWhatWaitsToBeSentThenDeliversWhatCameBeforeThePeersEnd(Muxer muxer) {
    Reads reads = new Reads();
    try (SessionPair pair = pair(muxer, reads, ch -> ch.config().setAutoRead(false))) {
      StreamChannel accepted = twoFramesAndTheEndUnread(pair);
      accepted.write(Unpooled.wrappedBuffer(new byte[10])) // not flushed: it can never go now
          .addListener(f -> reads.events.add("write failed " + f.cause().getClass().getSimpleName()));
      pair.server.close();
      pair.server.runPendingTasks();
      assertEquals(List.of("write failed ClosedChannelException", "read 2000", "read 2000", "readComplete", "inactive"),
          reads.take(), "the bytes a stream never read go up when its connection ends in order");
      assertFalse(accepted.isOpen());
    }
  }
}
