package io.secio.streams.mplex;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import io.secio.streams.CollectedStream;
import io.secio.streams.MemoryBudget;
import io.secio.streams.StreamChannel;
import io.secio.streams.mplex.MplexException.Reason;
import io.secio.streams.mplex.MplexWire.Frame;
import io.secio.testsupport.Collect;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An mplex session under attack ({@code docs/STREAMS.md} §9.4): each connection-level violation ends
 * with the open stream seeing a typed {@link MplexException}, the close, and nothing after the bad
 * frame delivered; varints are refused from their bytes, before any allocation; and the bounds that
 * stand in for flow control (a stream's buffer, the stream cap, the refusal backlog) hold against a
 * peer that opens, resets and sends without end.
 */
class MplexHostileTest {
  private static final int MIB = 1024 * 1024;

  /** A session with the peer's stream 1 open and 5 bytes read on it. */
  private static final class Session implements AutoCloseable {
    final List<CollectedStream> streams = new ArrayList<>();
    final EmbeddedChannel channel;

    Session(MplexConfig config, io.netty.channel.ChannelHandler... before) {
      channel = new EmbeddedChannel();
      channel.pipeline().addLast(before);
      channel.pipeline().addLast(MplexHandler.create(config, CollectedStream.into(streams,
          stream -> stream.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true))));
      channel.writeInbound(MplexWire.newStream(1), MplexWire.frame(1, MplexFrames.MESSAGE_INITIATOR,
          new byte[] {1, 2, 3, 4, 5}));
      MplexWire.written(channel);
    }

    Session() {
      this(MplexConfig.defaults());
    }

    /** Stream 1. */
    StreamChannel stream() {
      return streams.get(0).stream();
    }

    /** What stream 1's pipeline saw. */
    Collect collect() {
      return streams.get(0).collect();
    }

    @Override
    public void close() {
      channel.finishAndReleaseAll();
    }
  }

  static Stream<Arguments> violations() {
    byte[] tenContinuations = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80,
        (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80};
    return Stream.of(
        Arguments.of("a message over 1 MiB", MplexWire.headerOnly(1, MplexFrames.MESSAGE_INITIATOR, MIB + 1),
            Reason.FRAME_TOO_LONG),
        Arguments.of("a length varint of 4 bytes", Unpooled.wrappedBuffer(new byte[] {0x0a, (byte) 0x80,
            (byte) 0x80, (byte) 0x80, 0x01}), Reason.FRAME_TOO_LONG),
        Arguments.of("a header varint of 10 bytes", Unpooled.wrappedBuffer(tenContinuations), Reason.BAD_VARINT),
        Arguments.of("a header varint not in its shortest form", Unpooled.wrappedBuffer(new byte[] {(byte) 0x8a, 0x00,
            0x00}), Reason.BAD_VARINT),
        Arguments.of("a length varint not in its shortest form", Unpooled.wrappedBuffer(new byte[] {0x0a, (byte) 0x81,
            0x00, 0x01}), Reason.BAD_VARINT),
        Arguments.of("flag 7", MplexWire.frame(1, 7), Reason.BAD_FLAG),
        Arguments.of("a stream id reused while open", MplexWire.newStream(1), Reason.DUPLICATE_STREAM),
        Arguments.of("a stream id below the peer's last", MplexWire.newStream(0), Reason.BAD_STREAM_ID),
        Arguments.of("a message on a stream never opened", MplexWire.frame(9, MplexFrames.MESSAGE_INITIATOR,
            new byte[] {1}), Reason.UNKNOWN_STREAM),
        Arguments.of("a message on one of our streams never opened", MplexWire.frame(0, MplexFrames.MESSAGE_RECEIVER,
            new byte[] {1}), Reason.UNKNOWN_STREAM),
        Arguments.of("a close that carries data", MplexWire.frame(1, MplexFrames.CLOSE_INITIATOR, new byte[] {1}),
            Reason.BAD_CONTROL_FRAME),
        Arguments.of("a reset that carries data", MplexWire.frame(1, MplexFrames.RESET_INITIATOR, new byte[] {1}),
            Reason.BAD_CONTROL_FRAME));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("violations")
  void aViolationClosesTheConnectionAfterTheStreamHeardAndNothingAfterItIsDelivered(String name, ByteBuf bad,
      Reason reason) {
    try (Session s = new Session()) {
      ByteBuf read = Unpooled.wrappedBuffer(bad, MplexWire.frame(1, MplexFrames.MESSAGE_INITIATOR, new byte[] {9, 9}));
      MplexException e = assertThrows(MplexException.class, () -> s.channel.writeInbound(read));
      assertEquals(reason, e.reason(), name);
      s.channel.runPendingTasks();
      assertEquals(List.of("active", "exception MplexException", "inactive"), s.collect().events());
      assertEquals(reason, ((MplexException) s.collect().exceptions().get(0)).reason());
      assertEquals(5, s.collect().received().length, "nothing after the bad frame");
      assertFalse(s.channel.isOpen());
    }
  }

  @Test
  void aMessageOfExactly1MibIsAcceptedAndOneByteMoreIsRefusedBeforeItsData() {
    try (Session s = new Session()) {
      s.channel.writeInbound(MplexWire.frame(1, MplexFrames.MESSAGE_INITIATOR, new byte[MIB]));
      assertEquals(5 + MIB, s.collect().received().length);
      // Only the header of the oversized one arrives: it is refused from the header, holding nothing.
      MplexException e = assertThrows(MplexException.class,
          () -> s.channel.writeInbound(MplexWire.headerOnly(1, MplexFrames.MESSAGE_INITIATOR, MIB + 1)));
      assertEquals(Reason.FRAME_TOO_LONG, e.reason());
    }
  }

  @Test
  void dataAfterThePeersCloseIsAViolation() {
    try (Session s = new Session()) {
      s.channel.writeInbound(MplexWire.frame(1, MplexFrames.CLOSE_INITIATOR));
      assertTrue(s.stream().isInputShutdown());
      MplexException e = assertThrows(MplexException.class, () -> s.channel.writeInbound(
          MplexWire.frame(1, MplexFrames.MESSAGE_INITIATOR, new byte[] {7})));
      assertEquals(Reason.DATA_AFTER_CLOSE, e.reason());
      assertEquals(5, s.collect().received().length);
    }
  }

  @Test
  void dataOnAStreamClosedHereIsDroppedAndTheSessionGoesOn() {
    try (Session s = new Session()) {
      s.stream().reset();
      assertEquals(List.of(new Frame(1, MplexFrames.RESET_RECEIVER, new byte[0])).toString(),
          MplexWire.frames(s.channel).toString());
      s.channel.writeInbound(MplexWire.frame(1, MplexFrames.MESSAGE_INITIATOR, new byte[100]),
          MplexWire.frame(1, MplexFrames.CLOSE_INITIATOR), MplexWire.frame(1, MplexFrames.RESET_INITIATOR));
      assertTrue(s.channel.isActive());
      assertEquals(5, s.collect().received().length);
      assertEquals(0, MplexWire.written(s.channel).length);
      // A reused id of a stream that closed is still refused: ids only grow.
      assertEquals(Reason.BAD_STREAM_ID, assertThrows(MplexException.class,
          () -> s.channel.writeInbound(MplexWire.newStream(1))).reason());
    }
  }

  @Test
  void aStreamWhoseReaderNeverReadsIsResetAtItsBoundAndNoOtherStreamIsTouched() {
    MplexConfig config = MplexConfig.builder().maxStreamBuffer(4 * MIB).build();
    List<CollectedStream> streams = new ArrayList<>();
    EmbeddedChannel ch = new EmbeddedChannel(MplexHandler.create(config, CollectedStream.into(streams,
        stream -> stream.config().setAutoRead(((io.secio.streams.StreamChannel) stream).streamId() != 0))));
    ch.writeInbound(MplexWire.newStream(0), MplexWire.newStream(1));
    byte[] mib = new byte[MIB];
    for (int i = 0; i < 4; i++) {
      ch.writeInbound(MplexWire.frame(0, MplexFrames.MESSAGE_INITIATOR, mib),
          MplexWire.frame(1, MplexFrames.MESSAGE_INITIATOR, mib));
    }
    assertTrue(streams.get(0).stream().isOpen(), "4 MiB held: at the bound, not over it");
    assertEquals(0, MplexWire.written(ch).length);
    ch.writeInbound(MplexWire.frame(0, MplexFrames.MESSAGE_INITIATOR, new byte[] {1}),
        MplexWire.frame(1, MplexFrames.MESSAGE_INITIATOR, mib));
    ch.runPendingTasks();
    CollectedStream slow = streams.get(0);
    assertEquals(Reason.STREAM_BUFFER_EXCEEDED,
        assertInstanceOf(MplexException.class, slow.collect().exceptions().get(0)).reason());
    assertFalse(slow.stream().isOpen());
    assertEquals(0, slow.collect().received().length, "its reader never asked");
    assertEquals(List.of(new Frame(0, MplexFrames.RESET_RECEIVER, new byte[0])).toString(),
        MplexWire.frames(ch).toString());
    assertEquals(5 * MIB, streams.get(1).collect().received().length, "the reading stream goes on");
    assertTrue(ch.isActive());
    // What it sends on after our reset is dropped, not held.
    ch.writeInbound(MplexWire.frame(0, MplexFrames.MESSAGE_INITIATOR, mib));
    assertTrue(ch.isActive());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void tenThousandNewStreamsOpenAtMostTheCapAndTheRestAreRefused() {
    List<CollectedStream> streams = new ArrayList<>();
    EmbeddedChannel ch =
        new EmbeddedChannel(MplexHandler.create(MplexConfig.defaults(), CollectedStream.into(streams)));
    ByteBuf flood = Unpooled.buffer();
    for (int id = 0; id < 10_000; id++) {
      flood.writeBytes(MplexWire.newStream(id));
    }
    ch.writeInbound(flood);
    assertEquals(MplexConfig.DEFAULT_MAX_STREAMS, streams.size());
    List<Frame> refusals = MplexWire.frames(ch);
    assertEquals(10_000 - MplexConfig.DEFAULT_MAX_STREAMS, refusals.size());
    assertTrue(refusals.stream().allMatch(f -> f.flag() == MplexFrames.RESET_RECEIVER && f.data().length == 0));
    assertEquals(MplexConfig.DEFAULT_MAX_STREAMS, refusals.get(0).id());
    // Closing one makes room for one more.
    streams.get(0).stream().close();
    ch.runPendingTasks();
    MplexWire.written(ch);
    ch.writeInbound(MplexWire.newStream(10_000), MplexWire.newStream(10_001));
    assertEquals(MplexConfig.DEFAULT_MAX_STREAMS + 1, streams.size());
    assertEquals(List.of(new Frame(10_001, MplexFrames.RESET_RECEIVER, new byte[0])).toString(),
        MplexWire.frames(ch).toString());
    assertTrue(ch.isActive());
    assertFalse(ch.finishAndReleaseAll());
  }

  /** Holds every write's promise: a peer that never reads what this side sends. */
  private static final class NeverWritten extends ChannelOutboundHandlerAdapter {
    final List<ChannelPromise> promises = new ArrayList<>();

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
      ReferenceCountUtil.release(msg);
      promises.add(promise);
    }
  }

  @Test
  void aPeerThatProvokesRefusalsAndNeverReadsThemIsCutOff() {
    MplexConfig config = MplexConfig.builder().maxStreams(1).maxUnreadRefusals(16).build();
    try (Session s = new Session(config, new NeverWritten())) {
      ByteBuf flood = Unpooled.buffer();
      for (int id = 2; id < 100; id++) {
        flood.writeBytes(MplexWire.newStream(id));
      }
      MplexException e = assertThrows(MplexException.class, () -> s.channel.writeInbound(flood));
      assertEquals(Reason.CONTROL_FLOOD, e.reason());
      assertFalse(s.channel.isOpen());
    }
  }

  @Test
  void aPeerThatOpensAndClosesStreamsAndNeverReadsOurClosesIsCutOff() {
    // Without half-closure each stream closes on the peer's Close and answers with its own: 16 unread.
    MplexConfig config = MplexConfig.builder().maxUnreadControlFrames(16).build();
    List<CollectedStream> streams = new ArrayList<>();
    EmbeddedChannel ch =
        new EmbeddedChannel(new NeverWritten(), MplexHandler.create(config, CollectedStream.into(streams)));
    int pairs = 0;
    MplexException e = null;
    while (e == null && pairs < 10_000) {
      long id = pairs++;
      ByteBuf pair = Unpooled.wrappedBuffer(MplexWire.newStream(id), MplexWire.frame(id, MplexFrames.CLOSE_INITIATOR));
      try {
        ch.writeInbound(pair);
        ch.runPendingTasks();
      } catch (Exception thrown) { // EmbeddedChannel rethrows what reached its pipeline's tail
        e = assertInstanceOf(MplexException.class, thrown);
      }
    }
    assertEquals(Reason.CONTROL_FLOOD, e.reason());
    assertEquals("CONTROL_FLOOD: 16 resets and closes unread by the peer", e.getMessage());
    assertEquals(16 + 1, pairs, "16 closes unread; the next one ends the session");
    assertFalse(ch.isOpen());
  }

  @Test
  void theStreamsOfAConnectionHoldAtMostItsBoundAndTheStreamAMessageWouldPassItWithIsReset() {
    MplexConfig config = MplexConfig.builder().maxSessionBuffer(6 * MIB).build();
    List<CollectedStream> streams = new ArrayList<>();
    EmbeddedChannel ch = new EmbeddedChannel(MplexHandler.create(config, CollectedStream.into(streams,
        stream -> stream.config().setAutoRead(false))));
    byte[] mib = new byte[MIB];
    for (long id = 0; id < 4; id++) {
      ch.writeInbound(MplexWire.newStream(id));
    }
    for (int round = 0; round < 3; round++) {
      ch.writeInbound(MplexWire.frame(0, MplexFrames.MESSAGE_INITIATOR, mib),
          MplexWire.frame(1, MplexFrames.MESSAGE_INITIATOR, mib));
    }
    assertEquals(0, MplexWire.written(ch).length, "6 MiB held: at the bound, not over it");
    ch.writeInbound(MplexWire.frame(2, MplexFrames.MESSAGE_INITIATOR, new byte[] {1}));
    ch.runPendingTasks();
    MplexException e = assertInstanceOf(MplexException.class, streams.get(2).collect().exceptions().get(0));
    assertEquals(Reason.SESSION_BUFFER_EXCEEDED, e.reason());
    assertEquals("SESSION_BUFFER_EXCEEDED: the streams hold 6291456 unread bytes, 1 more for stream 2 would pass "
        + "6291456", e.getMessage());
    assertEquals(List.of(new Frame(2, MplexFrames.RESET_RECEIVER, new byte[0])).toString(),
        MplexWire.frames(ch).toString());
    assertTrue(streams.get(0).stream().isOpen() && streams.get(1).stream().isOpen()
        && streams.get(3).stream().isOpen());
    // Stream 0 reads its 3 MiB and asks for more: room for 3 MiB on any stream again.
    for (int reads = 0; reads < 10 && streams.get(0).collect().received().length < 3 * MIB; reads++) {
      streams.get(0).stream().read();
    }
    assertEquals(3 * MIB, streams.get(0).collect().received().length);
    streams.get(0).stream().read(); // asks for more: what it read is given back
    for (int i = 0; i < 3; i++) {
      ch.writeInbound(MplexWire.frame(3, MplexFrames.MESSAGE_INITIATOR, mib));
    }
    assertTrue(streams.get(3).stream().isOpen());
    assertEquals(0, MplexWire.written(ch).length);
    ch.writeInbound(MplexWire.frame(1, MplexFrames.MESSAGE_INITIATOR, new byte[] {1}));
    ch.runPendingTasks();
    assertEquals(Reason.SESSION_BUFFER_EXCEEDED,
        ((MplexException) streams.get(1).collect().exceptions().get(0)).reason());
    // A stream that closes gives back what it held: stream 3's 3 MiB.
    streams.get(3).stream().close();
    ch.runPendingTasks();
    MplexWire.written(ch);
    ch.writeInbound(MplexWire.newStream(4));
    for (int i = 0; i < 3; i++) {
      ch.writeInbound(MplexWire.frame(4, MplexFrames.MESSAGE_INITIATOR, mib));
    }
    assertTrue(streams.get(4).stream().isOpen());
    assertTrue(ch.isActive(), "each time a stream went, never the connection");
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void aStreamThatShutsItsInputGivesBackWhatItReadAndWhatWaitedToTheConnectionAndTheBudget() {
    MemoryBudget budget = MemoryBudget.of(MIB);
    MplexConfig config = MplexConfig.builder().maxMessage(3000).maxStreamBuffer(3000).maxSessionBuffer(3000)
        .budget(budget).build();
    List<CollectedStream> streams = new ArrayList<>();
    EmbeddedChannel ch = listener(config, streams, "10.0.0.9");
    ch.writeInbound(MplexWire.newStream(0), MplexWire.frame(0, MplexFrames.MESSAGE_INITIATOR, new byte[1000]));
    streams.get(0).stream().read(); // read, not yet given back: that waits for the next read
    ch.writeInbound(MplexWire.frame(0, MplexFrames.MESSAGE_INITIATOR, new byte[500]));
    assertEquals(1000, streams.get(0).collect().received().length);
    assertEquals(1500, budget.used());
    assertTrue(streams.get(0).stream().shutdownInput().isSuccess());
    assertEquals(0, budget.used(), "the bytes read and the bytes waiting went back");
    ch.writeInbound(MplexWire.newStream(1), MplexWire.frame(1, MplexFrames.MESSAGE_INITIATOR, new byte[3000]));
    ch.runPendingTasks();
    assertTrue(streams.get(1).stream().isOpen(), "the connection's whole bound is free again");
    assertEquals(0, MplexWire.written(ch).length, "no reset");
    assertEquals(3000, budget.used());
    assertFalse(ch.finishAndReleaseAll());
    assertEquals(0, budget.used());
  }

  @Test
  void theRestOfAMessageForAStreamClosedWhileItArrivedIsDroppedNotHeld() {
    MemoryBudget budget = MemoryBudget.of(MIB);
    List<CollectedStream> streams = new ArrayList<>();
    EmbeddedChannel ch = listener(MplexConfig.builder().budget(budget).build(), streams, "10.0.0.10");
    ch.writeInbound(MplexWire.newStream(0), Unpooled.wrappedBuffer(
        MplexWire.headerOnly(0, MplexFrames.MESSAGE_INITIATOR, 1000), Unpooled.wrappedBuffer(new byte[500])));
    assertEquals(500, budget.used(), "half of it came");
    streams.get(0).stream().close();
    ch.runPendingTasks();
    assertEquals(0, budget.used());
    ch.writeInbound(Unpooled.wrappedBuffer(new byte[500]));
    assertEquals(0, budget.used(), "the other half went nowhere");
    assertEquals(0, streams.get(0).collect().received().length);
    assertTrue(ch.isActive());
    assertEquals(List.of(new Frame(0, MplexFrames.CLOSE_RECEIVER, new byte[0])).toString(),
        MplexWire.frames(ch).toString(), "our close, and nothing else");
    assertFalse(ch.finishAndReleaseAll());
  }

  /** An mplex listener of {@code config} whose streams read only when told, for a peer at {@code remote}. */
  private static EmbeddedChannel listener(MplexConfig config, List<CollectedStream> streams, String remote) {
    EmbeddedChannel ch = new EmbeddedChannel() {
      @Override
      protected SocketAddress remoteAddress0() {
        return new InetSocketAddress(remote, 4000);
      }
    };
    ch.pipeline().addLast(MplexHandler.create(config,
        CollectedStream.into(streams, stream -> stream.config().setAutoRead(false))));
    return ch;
  }

  @Test
  void connectionsSharingABudgetHoldNoMoreThanItAndEachSourceNoMoreThanItsShare() {
    MemoryBudget budget = MemoryBudget.of(3 * MIB, 2 * MIB);
    MplexConfig config = MplexConfig.builder().budget(budget).build();
    List<CollectedStream> a = new ArrayList<>();
    List<CollectedStream> b = new ArrayList<>();
    List<CollectedStream> c = new ArrayList<>();
    EmbeddedChannel fromA = listener(config, a, "10.0.0.1");
    EmbeddedChannel alsoFromA = listener(config, b, "10.0.0.1");
    EmbeddedChannel fromC = listener(config, c, "10.0.0.3");
    byte[] mib = new byte[MIB];
    fromA.writeInbound(MplexWire.newStream(0), MplexWire.frame(0, MplexFrames.MESSAGE_INITIATOR, mib));
    alsoFromA.writeInbound(MplexWire.newStream(0), MplexWire.frame(0, MplexFrames.MESSAGE_INITIATOR, mib));
    assertEquals(2 * MIB, budget.used(), "the source's share, held by two connections");
    alsoFromA.writeInbound(MplexWire.frame(0, MplexFrames.MESSAGE_INITIATOR, new byte[] {1}));
    alsoFromA.runPendingTasks();
    MplexException e = assertInstanceOf(MplexException.class, b.get(0).collect().exceptions().get(0));
    assertEquals(Reason.BUDGET_EXCEEDED, e.reason());
    assertEquals("BUDGET_EXCEEDED: the node's budget has room for fewer than 1 more bytes for stream 0",
        e.getMessage());
    assertEquals(List.of(new Frame(0, MplexFrames.RESET_RECEIVER, new byte[0])).toString(),
        MplexWire.frames(alsoFromA).toString());
    assertEquals(MIB, budget.used(), "the stream reset gave its MiB back");
    fromC.writeInbound(MplexWire.newStream(0), MplexWire.frame(0, MplexFrames.MESSAGE_INITIATOR, mib),
        MplexWire.frame(0, MplexFrames.MESSAGE_INITIATOR, mib));
    assertEquals(3 * MIB, budget.used(), "another source: the rest of the whole budget");
    // Spent: a new stream is refused, on any connection.
    fromA.writeInbound(MplexWire.newStream(1));
    assertEquals(List.of(new Frame(1, MplexFrames.RESET_RECEIVER, new byte[0])).toString(),
        MplexWire.frames(fromA).toString());
    assertEquals(1, a.size());
    // c's stream reads what it holds: room again.
    for (int reads = 0; reads < 10 && c.get(0).collect().received().length < 2 * MIB; reads++) {
      c.get(0).stream().read();
    }
    c.get(0).stream().read();
    assertEquals(MIB, budget.used());
    fromA.writeInbound(MplexWire.newStream(2), MplexWire.frame(2, MplexFrames.MESSAGE_INITIATOR, mib));
    assertEquals(2, a.size());
    assertTrue(a.get(1).stream().isOpen());
    assertEquals(2 * MIB, budget.used());
    assertTrue(fromA.isActive() && alsoFromA.isActive() && fromC.isActive(), "streams go, never a connection");
    assertFalse(fromA.finishAndReleaseAll());
    assertFalse(alsoFromA.finishAndReleaseAll());
    assertFalse(fromC.finishAndReleaseAll());
    assertEquals(0, budget.used(), "the sessions ended: everything went back");
  }

  @Test
  void aResetStormLeavesNoStreamAndNoAnswer() {
    List<CollectedStream> streams = new ArrayList<>();
    EmbeddedChannel ch =
        new EmbeddedChannel(MplexHandler.create(MplexConfig.defaults(), CollectedStream.into(streams)));
    ByteBuf storm = Unpooled.buffer();
    for (int id = 0; id < 10_000; id++) {
      storm.writeBytes(MplexWire.newStream(id));
      storm.writeBytes(MplexWire.bytes(id, MplexFrames.MESSAGE_INITIATOR, new byte[] {1, 2, 3}));
      storm.writeBytes(MplexWire.bytes(id, MplexFrames.RESET_INITIATOR, new byte[0]));
    }
    ch.writeInbound(storm);
    ch.runPendingTasks();
    assertEquals(10_000, streams.size(), "each opened in turn: never more than one at a time");
    assertTrue(streams.stream().noneMatch(c -> c.stream().isOpen()));
    assertTrue(streams.stream().allMatch(c -> c.collect().events().contains("exception StreamResetException")));
    assertEquals(0, MplexWire.written(ch).length, "a reset is not answered");
    assertTrue(ch.isActive());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void anyCuttingOfTheBytesGivesTheSameStreams() {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    ByteBuf all = Unpooled.buffer();
    byte[] payload = new byte[70_000];
    random.nextBytes(payload);
    for (int id = 0; id < 3; id++) {
      all.writeBytes(MplexWire.newStream(id));
      all.writeBytes(MplexWire.bytes(id, MplexFrames.MESSAGE_INITIATOR, payload));
      all.writeBytes(MplexWire.bytes(id, MplexFrames.CLOSE_INITIATOR, new byte[0]));
    }
    byte[] bytes = new byte[all.readableBytes()];
    all.readBytes(bytes);
    all.release();
    for (int round = 0; round < 20; round++) {
      List<CollectedStream> streams = new ArrayList<>();
      EmbeddedChannel ch = new EmbeddedChannel(MplexHandler.create(MplexConfig.defaults(), CollectedStream.into(streams,
          stream -> stream.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true))));
      for (int at = 0; at < bytes.length; ) {
        int n = Math.min(bytes.length - at, round == 0 ? 1 : 1 + random.nextInt(4096));
        ch.writeInbound(Unpooled.copiedBuffer(bytes, at, n));
        at += n;
      }
      assertEquals(3, streams.size(), "seed " + seed);
      for (CollectedStream c : streams) {
        assertArrayEquals(payload, c.collect().received(), "seed " + seed);
        assertTrue(c.stream().isInputShutdown(), "seed " + seed);
      }
      assertFalse(ch.finishAndReleaseAll());
    }
  }

  @Test
  void aStreamOverItsBoundIsResetEvenWhenItsHandlerClosesOnHearingWhy() {
    MplexConfig config = MplexConfig.builder().maxStreamBuffer(MIB).build();
    List<Throwable> heard = new ArrayList<>();
    EmbeddedChannel ch = new EmbeddedChannel(MplexHandler.create(config, new ChannelInitializer<Channel>() {
      @Override
      protected void initChannel(Channel stream) {
        stream.config().setAutoRead(false);
        stream.pipeline().addLast(new ChannelInboundHandlerAdapter() {
          @Override
          public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            heard.add(cause);
            ctx.close(); // a clean Close here would tell the peer every byte was taken
          }
        });
      }
    }));
    ch.writeInbound(MplexWire.newStream(0), MplexWire.frame(0, MplexFrames.MESSAGE_INITIATOR, new byte[MIB]),
        MplexWire.frame(0, MplexFrames.MESSAGE_INITIATOR, new byte[] {1}));
    ch.runPendingTasks();
    assertEquals(1, heard.size());
    assertEquals(Reason.STREAM_BUFFER_EXCEEDED, assertInstanceOf(MplexException.class, heard.get(0)).reason());
    assertEquals(List.of(new Frame(0, MplexFrames.RESET_RECEIVER, new byte[0])).toString(),
        MplexWire.frames(ch).toString(), "reset, not closed");
    assertTrue(ch.isActive());
    assertFalse(ch.finishAndReleaseAll());
  }

  static Stream<Arguments> messages() {
    return Stream.of(
        Arguments.of(MplexWire.headerOnly(1, MplexFrames.MESSAGE_INITIATOR, MIB + 1),
            "FRAME_TOO_LONG: MessageInitiator of 1048577 bytes on stream 1, over 1048576"),
        Arguments.of(MplexWire.headerOnly(2, MplexFrames.NEW_STREAM, MIB + 1),
            "FRAME_TOO_LONG: NewStream of 1048577 bytes on stream 2, over 1048576"),
        Arguments.of(Unpooled.wrappedBuffer(new byte[] {0x0a, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x00}),
            "FRAME_TOO_LONG: a length varint over 3 bytes"),
        Arguments.of(Unpooled.wrappedBuffer(new byte[] {0x0a, (byte) 0x81, 0x00}),
            "BAD_VARINT: a length varint not in its shortest form"),
        Arguments.of(Unpooled.wrappedBuffer(new byte[] {(byte) 0x8a, 0x00}),
            "BAD_VARINT: a header varint not in its shortest form"),
        Arguments.of(MplexWire.frame(9, MplexFrames.MESSAGE_INITIATOR, new byte[] {1}),
            "UNKNOWN_STREAM: MessageInitiator on stream 9, never opened"),
        Arguments.of(MplexWire.frame(0, MplexFrames.MESSAGE_RECEIVER, new byte[] {1}),
            "UNKNOWN_STREAM: MessageReceiver on stream 0, never opened"),
        Arguments.of(MplexWire.frame(4, MplexFrames.CLOSE_RECEIVER), "UNKNOWN_STREAM: CloseReceiver on stream 4, never opened"),
        Arguments.of(MplexWire.frame(4, MplexFrames.RESET_RECEIVER), "UNKNOWN_STREAM: ResetReceiver on stream 4, never opened"),
        Arguments.of(MplexWire.frame(8, MplexFrames.CLOSE_INITIATOR), "UNKNOWN_STREAM: CloseInitiator on stream 8, never opened"),
        Arguments.of(MplexWire.frame(8, MplexFrames.RESET_INITIATOR), "UNKNOWN_STREAM: ResetInitiator on stream 8, never opened"),
        Arguments.of(MplexWire.frame(1, MplexFrames.CLOSE_INITIATOR, new byte[] {1, 2}),
            "BAD_CONTROL_FRAME: CloseInitiator with 2 bytes on stream 1"),
        Arguments.of(MplexWire.frame(1, MplexFrames.RESET_RECEIVER, new byte[] {1}),
            "BAD_CONTROL_FRAME: ResetReceiver with 1 bytes on stream 1"),
        Arguments.of(MplexWire.newStream(1), "DUPLICATE_STREAM: NewStream on open stream 1"),
        Arguments.of(MplexWire.newStream(0), "BAD_STREAM_ID: NewStream on stream 0, not above the peer's last, 1"),
        Arguments.of(MplexWire.frame(1, 7), "BAD_FLAG: flag 7 on stream 1"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("messages")
  void eachViolationSaysWhichFrameBrokeWhatRule(ByteBuf bad, String message) {
    try (Session s = new Session()) {
      MplexException e = assertThrows(MplexException.class, () -> s.channel.writeInbound(bad));
      assertEquals(message, e.getMessage());
    }
  }

  @Test
  void anEmptyMessageAfterThePeersCloseIsDroppedNotAViolation() {
    try (Session s = new Session()) {
      s.channel.writeInbound(MplexWire.frame(1, MplexFrames.CLOSE_INITIATOR),
          MplexWire.frame(1, MplexFrames.MESSAGE_INITIATOR, new byte[0]));
      assertTrue(s.channel.isActive());
      assertEquals(5, s.collect().received().length);
    }
  }

  @Test
  void withoutAnInboundHandlerEveryNewStreamIsRefused() {
    EmbeddedChannel ch = new EmbeddedChannel(MplexHandler.create(MplexConfig.defaults(), null));
    ch.writeInbound(MplexWire.newStream(0), MplexWire.newStream(1));
    assertEquals(List.of(new Frame(0, MplexFrames.RESET_RECEIVER, new byte[0]),
        new Frame(1, MplexFrames.RESET_RECEIVER, new byte[0])).toString(), MplexWire.frames(ch).toString());
    assertTrue(ch.isActive());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void aStreamOverItsBoundSaysHowMuchItHeld() {
    MplexConfig config = MplexConfig.builder().maxMessage(1000).maxStreamBuffer(1500).build();
    List<CollectedStream> streams = new ArrayList<>();
    EmbeddedChannel ch = new EmbeddedChannel(MplexHandler.create(config, CollectedStream.into(streams,
        stream -> stream.config().setAutoRead(false))));
    ch.writeInbound(MplexWire.newStream(0), MplexWire.frame(0, MplexFrames.MESSAGE_INITIATOR, new byte[1000]),
        MplexWire.frame(0, MplexFrames.MESSAGE_INITIATOR, new byte[501]));
    ch.runPendingTasks();
    assertEquals("STREAM_BUFFER_EXCEEDED: stream 0 holds 1000 unread bytes, 501 more would pass 1500",
        streams.get(0).collect().exceptions().get(0).getMessage());
    ch.finishAndReleaseAll();
  }
}
