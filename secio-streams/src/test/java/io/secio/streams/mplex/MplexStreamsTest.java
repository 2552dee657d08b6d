package io.secio.streams.mplex;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelOption;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.secio.streams.CollectedStream;
import io.secio.streams.SessionPair;
import io.secio.streams.StreamChannel;
import io.secio.streams.StreamChannelBootstrap;
import io.secio.streams.StreamOpener;
import io.secio.streams.StreamResetException;
import io.secio.streams.mplex.MplexWire.Frame;
import io.secio.testsupport.Collect;
import io.secio.testsupport.Echo;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * mplex on the child-channel contract ({@code docs/STREAMS.md} §2, §8): the exact frames of a
 * stream's life from each side, bytes both ways between two sessions in memory, half-close each way,
 * reset each way, long writes cut at {@code maxSendMessage}, and the connection's end.
 */
class MplexStreamsTest {
  private static final MplexConfig CONFIG = MplexConfig.defaults();

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  private static SessionPair pair(List<CollectedStream> clientStreams, List<CollectedStream> serverStreams) {
    return new SessionPair(MplexHandler.create(CONFIG, CollectedStream.into(clientStreams)),
        MplexHandler.create(CONFIG, CollectedStream.into(serverStreams)));
  }

  @Test
  void anOpenedStreamWritesTheInitiatorsFramesByteForByte() {
    EmbeddedChannel ch = new EmbeddedChannel(MplexHandler.create(CONFIG, null));
    Collect c = Collect.observing();
    Future<StreamChannel> f = new StreamChannelBootstrap(ch).option(ChannelOption.ALLOW_HALF_CLOSURE, true)
        .handler(c).open();
    StreamChannel s = f.getNow();
    assertEquals(0, s.streamId());
    assertEquals("000130", MplexWire.HEX.formatHex(MplexWire.written(ch)), "NewStream 0, named \"0\"");
    s.writeAndFlush(Unpooled.wrappedBuffer(ascii("hi")));
    assertEquals("02026869", MplexWire.HEX.formatHex(MplexWire.written(ch)), "MessageInitiator");
    ch.writeInbound(MplexWire.frame(0, MplexFrames.MESSAGE_RECEIVER, ascii("yo")));
    assertArrayEquals(ascii("yo"), c.received());
    s.shutdownOutput();
    assertEquals("0400", MplexWire.HEX.formatHex(MplexWire.written(ch)), "CloseInitiator");
    assertTrue(s.isOpen());
    ch.writeInbound(MplexWire.frame(0, MplexFrames.CLOSE_RECEIVER));
    ch.runPendingTasks();
    assertFalse(s.isOpen(), "both sides closed: the stream is gone");
    assertEquals(List.of("active", "inputShutdown", "inputShutdownReadComplete", "inactive"), c.events());

    Future<StreamChannel> second = new StreamChannelBootstrap(ch).handler(Collect.observing()).open();
    assertEquals(1, second.getNow().streamId());
    second.getNow().reset();
    assertEquals("080131" + "0e00", MplexWire.HEX.formatHex(MplexWire.written(ch)), "NewStream 1, ResetInitiator 1");
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void aPeersStreamIsAnsweredWithTheReceiversFlags() {
    List<CollectedStream> accepted = new ArrayList<>();
    EmbeddedChannel ch = new EmbeddedChannel(MplexHandler.create(CONFIG, CollectedStream.into(accepted, stream ->
        stream.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true))));
    // The peer's stream 0 and ours would be two streams: the flag says whose an id is.
    ch.writeInbound(MplexWire.newStream(5), MplexWire.frame(5, MplexFrames.MESSAGE_INITIATOR, ascii("abc")),
        MplexWire.frame(5, MplexFrames.CLOSE_INITIATOR));
    assertEquals(1, accepted.size());
    CollectedStream c = accepted.get(0);
    assertEquals(5, c.stream().streamId());
    assertFalse(c.stream().isInitiator());
    assertArrayEquals(ascii("abc"), c.collect().received());
    assertEquals(List.of("active", "inputShutdown", "inputShutdownReadComplete"), c.collect().events());
    c.stream().writeAndFlush(Unpooled.wrappedBuffer(ascii("back")));
    c.stream().shutdownOutput();
    ch.runPendingTasks();
    // 5 << 3 | 1 = 0x29 MessageReceiver; 5 << 3 | 3 = 0x2b CloseReceiver.
    assertEquals("2904" + "6261636b" + "2b00", MplexWire.HEX.formatHex(MplexWire.written(ch)));
    assertFalse(c.stream().isOpen());

    ch.writeInbound(MplexWire.newStream(6), MplexWire.frame(6, MplexFrames.RESET_INITIATOR));
    CollectedStream reset = accepted.get(1);
    assertInstanceOf(StreamResetException.class, reset.collect().exceptions().get(0));
    assertFalse(reset.stream().isOpen());
    assertEquals(0, MplexWire.written(ch).length, "a reset is not answered");
    ch.writeInbound(MplexWire.newStream(7));
    accepted.get(2).stream().reset();
    assertEquals("3d00", MplexWire.HEX.formatHex(MplexWire.written(ch)), "ResetReceiver 7");
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void bytesGoBothWaysBetweenTwoSessionsAndEachEndHalfCloses() {
    List<CollectedStream> clientStreams = new ArrayList<>();
    List<CollectedStream> serverStreams = new ArrayList<>();
    try (SessionPair pair = pair(clientStreams, serverStreams)) {
      Collect opener = Collect.observing();
      StreamChannel out = pair.open(opener);
      out.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
      StreamChannel in = serverStreams.get(0).stream();
      in.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
      Future<StreamChannel> fromServer = new StreamChannelBootstrap(pair.server).handler(Collect.observing()).open();
      pair.pump();
      assertEquals(0, fromServer.getNow().streamId(), "each side numbers its own streams from 0");
      assertEquals(0, clientStreams.get(0).stream().streamId());

      byte[] big = new byte[3 * 1024 * 1024 + 17];
      new Random(24).nextBytes(big);
      out.writeAndFlush(Unpooled.wrappedBuffer(big));
      out.shutdownOutput();
      pair.pump();
      assertArrayEquals(big, serverStreams.get(0).collect().received(), "every byte before the half-close");
      assertTrue(in.isInputShutdown());
      assertTrue(in.isOpen());
      in.writeAndFlush(Unpooled.wrappedBuffer(ascii("after your close")));
      in.shutdownOutput();
      pair.pump();
      assertArrayEquals(ascii("after your close"), opener.received());
      assertFalse(in.isOpen());
      assertFalse(out.isOpen());

      StreamChannel resetHere = pair.open(Collect.observing());
      CollectedStream resetThere = serverStreams.get(1);
      resetHere.reset();
      pair.pump();
      assertInstanceOf(StreamResetException.class, resetThere.collect().exceptions().get(0));
      assertFalse(resetThere.stream().isOpen());
    }
  }

  @Test
  void aLongWriteGoesOutInMessagesOfAtMostMaxSendMessage() {
    MplexConfig config = MplexConfig.builder().maxSendMessage(1000).build();
    EmbeddedChannel ch = new EmbeddedChannel(MplexHandler.create(config, null));
    StreamChannel s = new StreamChannelBootstrap(ch).handler(Collect.observing()).open().getNow();
    MplexWire.written(ch);
    s.writeAndFlush(Unpooled.wrappedBuffer(new byte[2500]));
    List<Frame> frames = MplexWire.frames(ch);
    assertEquals(List.of(1000, 1000, 500), frames.stream().map(f -> f.data().length).toList());
    assertTrue(frames.stream().allMatch(f -> f.flag() == MplexFrames.MESSAGE_INITIATOR && f.id() == 0));
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void whenTheConnectionClosesAStreamThePeerHadClosedIsReadToItsEndAndTheOthersFail() {
    List<CollectedStream> accepted = new ArrayList<>();
    EmbeddedChannel ch = new EmbeddedChannel(MplexHandler.create(CONFIG, CollectedStream.into(accepted,
        stream -> stream.config().setAutoRead(false))));
    ch.writeInbound(MplexWire.newStream(0), MplexWire.newStream(1));
    ch.writeInbound(MplexWire.frame(0, MplexFrames.MESSAGE_INITIATOR, ascii("all of it")),
        MplexWire.frame(0, MplexFrames.CLOSE_INITIATOR), MplexWire.frame(1, MplexFrames.MESSAGE_INITIATOR, ascii("cut")));
    assertEquals(0, accepted.get(0).collect().received().length, "auto-read off: nothing read yet");
    ch.close();
    ch.runPendingTasks();
    assertArrayEquals(ascii("all of it"), accepted.get(0).collect().received(), "a finished stream loses nothing");
    assertTrue(accepted.get(0).collect().exceptions().isEmpty());
    MplexException cut = assertInstanceOf(MplexException.class, accepted.get(1).collect().exceptions().get(0));
    assertEquals(MplexException.Reason.CONNECTION_CLOSED, cut.reason());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void aLastMessageThenItsCloseInOneReadIsAnsweredBeforeTheStreamCloses() {
    // An echo without half-closure: the peer's Close ends the stream, after the echo went out.
    EmbeddedChannel ch = new EmbeddedChannel(MplexHandler.create(CONFIG, new Echo()));
    ch.writeInbound(Unpooled.wrappedBuffer(MplexWire.newStream(3),
        MplexWire.frame(3, MplexFrames.MESSAGE_INITIATOR, ascii("bye")), MplexWire.frame(3, MplexFrames.CLOSE_INITIATOR)));
    ch.runPendingTasks();
    assertEquals(List.of(new Frame(3, MplexFrames.MESSAGE_RECEIVER, ascii("bye")), new Frame(3,
        MplexFrames.CLOSE_RECEIVER, new byte[0])).toString(), MplexWire.frames(ch).toString());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void ourStreamsAreCappedAndAClosedOneMakesRoom() {
    EmbeddedChannel ch = new EmbeddedChannel(MplexHandler.create(MplexConfig.builder().maxStreams(2).build(), null));
    StreamChannel first = new StreamChannelBootstrap(ch).handler(Collect.observing()).open().getNow();
    StreamChannel second = new StreamChannelBootstrap(ch).handler(Collect.observing()).open().getNow();
    assertEquals(List.of(0L, 1L), List.of(first.streamId(), second.streamId()));
    Future<StreamChannel> third = new StreamChannelBootstrap(ch).handler(Collect.observing()).open();
    MplexException limit = assertInstanceOf(MplexException.class, third.cause());
    assertEquals("STREAM_LIMIT: 2 streams of ours open", limit.getMessage());
    // The peer's streams count apart: two of its own still open.
    ch.writeInbound(MplexWire.newStream(0), MplexWire.newStream(1));
    first.close();
    ch.runPendingTasks();
    assertEquals(2, new StreamChannelBootstrap(ch).handler(Collect.observing()).open().getNow().streamId());
    ch.finishAndReleaseAll();
  }

  @Test
  void noStreamOpensOnceTheConnectionIsClosingOrClosed() {
    EmbeddedChannel ch = new EmbeddedChannel(new io.netty.channel.ChannelOutboundHandlerAdapter() {
      @Override
      public void close(io.netty.channel.ChannelHandlerContext ctx, io.netty.channel.ChannelPromise promise) {
        // held: the connection stays open while it closes
      }
    }, MplexHandler.create(CONFIG, null));
    ch.pipeline().close();
    Future<StreamChannel> closing = new StreamChannelBootstrap(ch).handler(Collect.observing()).open();
    assertEquals("SESSION_CLOSED: the session is closing", closing.cause().getMessage());
    ch.pipeline().fireChannelInactive();
    Future<StreamChannel> closed = new StreamChannelBootstrap(ch).handler(Collect.observing()).open();
    assertInstanceOf(IllegalStateException.class, closed.cause(), "no muxer once the connection is gone");
    ch.writeInbound(MplexWire.newStream(0));
    assertEquals(0, MplexWire.written(ch).length, "nothing read once inactive");
    ch.finishAndReleaseAll();
  }

  @Test
  void aMuxerKeptPastItsConnectionsEndOpensNothing() {
    EmbeddedChannel ch = new EmbeddedChannel(MplexHandler.create(CONFIG, null));
    StreamOpener kept = ch.attr(StreamOpener.KEY).get();
    ch.pipeline().fireChannelInactive(); // the session ends; the connection has not closed itself
    Promise<StreamChannel> open = ch.eventLoop().newPromise();
    kept.open(stream -> {}, open);
    assertEquals("SESSION_CLOSED: the session is closed", open.cause().getMessage());
    assertEquals(0, MplexWire.written(ch).length);
    ch.finishAndReleaseAll();
  }
}
