package io.secio.streams.yamux;

import static io.secio.streams.yamux.YamuxFrames.FLAG_ACK;
import static io.secio.streams.yamux.YamuxFrames.FLAG_FIN;
import static io.secio.streams.yamux.YamuxFrames.FLAG_RST;
import static io.secio.streams.yamux.YamuxFrames.FLAG_SYN;
import static io.secio.streams.yamux.YamuxFrames.TYPE_DATA;
import static io.secio.streams.yamux.YamuxFrames.TYPE_GO_AWAY;
import static io.secio.streams.yamux.YamuxFrames.TYPE_PING;
import static io.secio.streams.yamux.YamuxFrames.TYPE_WINDOW_UPDATE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.secio.streams.StreamChannel;
import io.secio.streams.StreamChannelBootstrap;
import io.secio.streams.yamux.YamuxException.Reason;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * A listener under attack ({@code docs/STREAMS.md} §5): every connection-level violation ends with
 * the open stream seeing a typed {@link YamuxException} first, GoAway with the right code, the close,
 * and nothing of what followed the bad frame delivered. Then the limits that are not violations:
 * refusals, data on closed streams, keepalive, and memory under a flood of SYNs.
 */
class HostileFramesTest {
  private static final YamuxConfig TENTACLE = YamuxConfig.tentacle();
  private static final int MIB = 1024 * 1024;

  /** A listener with stream 1 open (the client's SYN + 5 bytes read), and what it wrote discarded. */
  private static final class Listener implements AutoCloseable {
    final List<Collect> streams = new ArrayList<>();
    final EmbeddedChannel channel;

    Listener(YamuxConfig config, io.netty.channel.ChannelHandler... before) {
      channel = new EmbeddedChannel();
      channel.pipeline().addLast(before);
      channel.pipeline().addLast(YamuxHandler.server(config, Collect.into(streams)));
      channel.writeInbound(Wire.windowUpdate(FLAG_SYN, 1, 0), Wire.data(0, 1, new byte[] {1, 2, 3, 4, 5}));
      Wire.written(channel);
    }

    Collect stream() {
      return streams.get(0);
    }

    @Override
    public void close() {
      channel.finishAndReleaseAll();
    }
  }

  static Stream<Arguments> violations() {
    return Stream.of(
        Arguments.of("Data longer than the window", Wire.frame(TYPE_DATA, 0, 1, MIB + 1 - 5), Reason.WINDOW_EXCEEDED),
        Arguments.of("Data longer than the max frame", Wire.frame(TYPE_DATA, 0, 1, MIB + 1), Reason.FRAME_TOO_LONG),
        Arguments.of("length 0xFFFFFFFF", Wire.frame(TYPE_DATA, 0, 1, 0xFFFF_FFFFL), Reason.FRAME_TOO_LONG),
        Arguments.of("window over 2^32-1", Wire.windowUpdate(0, 1, 0xFFFF_FFFFL), Reason.WINDOW_OVERFLOW),
        Arguments.of("SYN on the listener's parity", Wire.windowUpdate(FLAG_SYN, 2, 0), Reason.BAD_STREAM_ID),
        Arguments.of("SYN on an id in use", Wire.windowUpdate(FLAG_SYN, 1, 0), Reason.DUPLICATE_STREAM),
        Arguments.of("SYN on stream 0", Wire.windowUpdate(FLAG_SYN, 0, 0), Reason.BAD_STREAM_ID),
        Arguments.of("Data on a stream never opened", Wire.data(0, 9, new byte[] {1}), Reason.UNKNOWN_STREAM),
        Arguments.of("Data+SYN over the initial window (CVE-2026-32314)",
            Wire.frame(TYPE_DATA, FLAG_SYN, 3, 256 * 1024 + 1), Reason.WINDOW_EXCEEDED),
        Arguments.of("bad version", Unpooled.wrappedBuffer(new byte[] {1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0}),
            Reason.BAD_VERSION),
        Arguments.of("unknown type", Wire.frame(4, 0, 1, 0), Reason.BAD_TYPE),
        Arguments.of("Ping on a stream", Wire.frame(TYPE_PING, FLAG_SYN, 1, 7), Reason.BAD_SESSION_FRAME),
        Arguments.of("GoAway on a stream", Wire.frame(TYPE_GO_AWAY, 0, 1, 0), Reason.BAD_SESSION_FRAME));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("violations")
  void aViolationEndsTheSessionWithGoAwayAfterTheStreamsHeard(String name, ByteBuf bad, Reason reason) {
    try (Listener l = new Listener(TENTACLE)) {
      // The bad frame, and in the same read a good Data frame after it: it must not be delivered.
      ByteBuf read = Unpooled.wrappedBuffer(bad, Wire.data(0, 1, new byte[] {9, 9}));
      YamuxException e = assertThrows(YamuxException.class, () -> l.channel.writeInbound(read));
      assertEquals(reason, e.reason(), name);
      assertEquals(List.of("active", "exception YamuxException", "inactive"), l.stream().events);
      assertEquals(reason, ((YamuxException) l.stream().errors.get(0)).reason());
      assertEquals(5, l.stream().received().length, "nothing after the bad frame");
      List<Wire.Frame> sent = Wire.frames(l.channel);
      Wire.Frame goAway = sent.get(sent.size() - 1);
      assertEquals(TYPE_GO_AWAY, goAway.type());
      assertEquals(reason.goAwayCode(), goAway.length(), "GoAway code");
      assertFalse(l.channel.isOpen());
    }
  }

  @Test
  void reusingAClosedStreamIdIsRefusedHarderThanTentacleDoes() {
    // probes.json reuse_closed_id: tentacle accepted a new SYN on a closed id; ids must grow here.
    try (Listener l = new Listener(TENTACLE)) {
      l.channel.writeInbound(Wire.data(FLAG_FIN, 1, new byte[0]));
      assertFalse(l.stream().stream.isOpen());
      Wire.written(l.channel);
      YamuxException e = assertThrows(YamuxException.class,
          () -> l.channel.writeInbound(Wire.windowUpdate(FLAG_SYN, 1, 0)));
      assertEquals(Reason.BAD_STREAM_ID, e.reason());
      assertEquals("000300000000000000000001", Wire.frames(l.channel).get(0).headerHex());
    }
  }

  @Test
  void dataAfterTheStreamsFinIsAViolation() {
    try (Listener l = new Listener(TENTACLE)) {
      l.stream().stream.config().setAllowHalfClosure(true);
      l.channel.writeInbound(Wire.windowUpdate(FLAG_FIN, 1, 0));
      YamuxException e = assertThrows(YamuxException.class,
          () -> l.channel.writeInbound(Wire.data(0, 1, new byte[] {1})));
      assertEquals(Reason.DATA_AFTER_FIN, e.reason());
    }
  }

  @Test
  void dataOnAClosedStreamIsDroppedAndTheSessionGoesOn() {
    try (Listener l = new Listener(TENTACLE)) {
      l.stream().stream.close();
      l.channel.writeInbound(Wire.data(0, 1, new byte[100]), Wire.windowUpdate(0, 1, 1000),
          Wire.data(FLAG_FIN, 1, new byte[0]));
      assertTrue(l.channel.isActive());
      assertEquals(5, l.stream().received().length);
      l.channel.writeInbound(Wire.windowUpdate(FLAG_SYN, 3, 0));
      assertEquals(2, l.streams.size(), "new streams still open");
    }
  }

  @Test
  void tenThousandSynsLeaveAtMostTheCapOpenAndEachGetsRst() {
    YamuxConfig config = TENTACLE.toBuilder().maxStreams(8).build();
    try (Listener l = new Listener(config)) {
      int refused = 0;
      for (int i = 0; i < 10_000; i++) {
        l.channel.writeInbound(Wire.windowUpdate(FLAG_SYN, 3 + 2L * i, 0));
        for (Wire.Frame f : Wire.frames(l.channel)) {
          if (f.flags() == (FLAG_ACK | FLAG_RST)) {
            refused++;
          }
        }
      }
      assertEquals(8, l.streams.size(), "stream 1 and 7 more");
      assertEquals(10_000 - 7, refused);
      assertTrue(l.channel.isActive());
    }
  }

  /** Holds every write: the peer reads nothing. */
  private static final class Unread extends ChannelOutboundHandlerAdapter {
    final List<Object> held = new ArrayList<>();

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
      held.add(msg);
    }

    void release() {
      held.forEach(ReferenceCountUtil::release);
      held.clear();
    }
  }

  @Test
  void aPeerThatFloodsSynsAndReadsNothingIsCutOffWithGoAway2() {
    Unread unread = new Unread();
    try (Listener l = new Listener(TENTACLE.toBuilder().maxStreams(1).build(), unread)) {
      int i = 0;
      YamuxException e = null;
      while (e == null && i < 10_000) {
        try {
          l.channel.writeInbound(Wire.windowUpdate(FLAG_SYN, 3 + 2L * i++, 0));
        } catch (Exception thrown) { // EmbeddedChannel rethrows what reached its pipeline's tail
          e = assertInstanceOf(YamuxException.class, thrown);
        }
      }
      assertEquals(Reason.CONTROL_FLOOD, e.reason());
      assertTrue(i <= 1025 + 1, "cut off after the backlog, at SYN " + i);
      assertEquals(List.of("active", "exception YamuxException", "inactive"), l.stream().events);
    } finally {
      unread.release();
    }
  }

  @Test
  void unansweredPingsDropTheSessionAtNinetySecondsWithoutGoAway() {
    // probes.json no_pong_stream: Ping SYN 1 at 30 s, 2 at 60 s, TCP closed at 90 s, no GoAway.
    try (Listener l = new Listener(TENTACLE)) {
      List<String> pings = new ArrayList<>();
      for (int s = 30; s <= 90; s += 30) {
        l.channel.advanceTimeBy(30, TimeUnit.SECONDS);
        try {
          l.channel.runScheduledPendingTasks();
          l.channel.checkException();
        } catch (Exception e) {
          assertEquals(Reason.KEEPALIVE_TIMEOUT, assertInstanceOf(YamuxException.class, e).reason());
          assertEquals(90, s);
        }
        Wire.frames(l.channel).forEach(f -> pings.add(f.headerHex()));
      }
      assertEquals(List.of("000200010000000000000001", "000200010000000000000002"), pings);
      assertFalse(l.channel.isOpen());
      assertEquals(Reason.KEEPALIVE_TIMEOUT, ((YamuxException) l.stream().errors.get(0)).reason());
    }
  }

  @Test
  void answeredPingsKeepTheSession() {
    try (Listener l = new Listener(TENTACLE)) {
      for (int tick = 1; tick <= 5; tick++) {
        l.channel.advanceTimeBy(30, TimeUnit.SECONDS);
        l.channel.runScheduledPendingTasks();
        Wire.Frame ping = Wire.frames(l.channel).get(0);
        l.channel.writeInbound(Wire.frame(TYPE_PING, FLAG_ACK, 0, ping.length()));
      }
      assertTrue(l.channel.isActive());
    }
  }

  @Test
  void theLibp2pProfileDropsOneIntervalAfterAnUnansweredPing() {
    try (Listener l = new Listener(YamuxConfig.libp2p())) {
      l.channel.advanceTimeBy(30, TimeUnit.SECONDS);
      l.channel.runScheduledPendingTasks();
      assertTrue(l.channel.isActive());
      l.channel.advanceTimeBy(30, TimeUnit.SECONDS);
      l.channel.runScheduledPendingTasks();
      YamuxException e = assertThrows(YamuxException.class, l.channel::checkException);
      assertEquals(Reason.KEEPALIVE_TIMEOUT, e.reason());
    }
  }

  @Test
  void afterThePeersGoAwayNoStreamOpensEitherWay() {
    try (Listener l = new Listener(TENTACLE)) {
      l.channel.writeInbound(Wire.frame(TYPE_GO_AWAY, 0, 0, 0), Wire.windowUpdate(FLAG_SYN, 3, 0));
      assertEquals(1, l.streams.size(), "the SYN after GoAway opened nothing");
      Future<StreamChannel> open = new StreamChannelBootstrap(l.channel).handler(new Collect()).open();
      l.channel.runPendingTasks();
      assertFalse(open.isSuccess());
      assertFalse(l.channel.isOpen());
    }
  }

  @Test
  void afterOurGoAwayTheSynsThatStillArriveGetRst() {
    Unread unread = new Unread();
    try (Listener l = new Listener(TENTACLE, unread)) {
      unread.release(); // the ACK of stream 1
      l.channel.pipeline().close(); // GoAway 0 goes out, held unread: the connection stays open meanwhile
      assertTrue(l.channel.isOpen());
      l.channel.writeInbound(Wire.windowUpdate(FLAG_SYN, 3, 0));
      assertEquals(1, l.streams.size());
      List<String> headers = new ArrayList<>();
      for (Object msg : unread.held) {
        headers.add(Wire.HEX.formatHex(io.netty.buffer.ByteBufUtil.getBytes((ByteBuf) msg)));
      }
      assertEquals(List.of("000300000000000000000000", "000100080000000300000000"), headers);
      Future<StreamChannel> open = new StreamChannelBootstrap(l.channel).handler(new Collect()).open();
      l.channel.runPendingTasks();
      assertInstanceOf(YamuxException.class, open.cause());
      l.channel.advanceTimeBy(10, TimeUnit.SECONDS); // the write timeout: closed though never written
      l.channel.runScheduledPendingTasks();
      assertFalse(l.channel.isOpen());
    } finally {
      unread.release();
    }
  }

  @Test
  void thePeersGoAwayWithAnErrorCodeReachesTheStreams() {
    try (Listener l = new Listener(TENTACLE)) {
      YamuxException e = assertThrows(YamuxException.class,
          () -> l.channel.writeInbound(Wire.frame(TYPE_GO_AWAY, 0, 0, 1)));
      assertEquals(Reason.PEER_GO_AWAY, e.reason());
      assertEquals(1, e.goAwayCode());
      assertEquals(List.of("active", "exception YamuxException", "inactive"), l.stream().events);
      assertEquals(List.of("000300000000000000000000"), Wire.frames(l.channel).stream().map(Wire.Frame::headerHex)
          .toList(), "answered with GoAway 0, as tentacle does");
    }
  }

  @Test
  void theConnectionClosingWithoutGoAwayIsAnErrorForTheStreams() {
    try (Listener l = new Listener(TENTACLE)) {
      l.channel.pipeline().fireChannelInactive();
      assertEquals(Reason.CONNECTION_CLOSED, ((YamuxException) l.stream().errors.get(0)).reason());
    }
  }

  @Test
  void aFrameAtATimeOrAByteAtATimeReadsTheSame() {
    byte[] body = new byte[3000];
    for (int i = 0; i < body.length; i++) {
      body[i] = (byte) (i * 7);
    }
    ByteBuf all = Unpooled.wrappedBuffer(Wire.windowUpdate(FLAG_SYN, 3, 0), Wire.data(0, 3, body),
        Wire.data(FLAG_FIN, 3, new byte[] {42}));
    try (Listener l = new Listener(TENTACLE)) {
      while (all.isReadable()) {
        l.channel.writeInbound(all.readRetainedSlice(1));
      }
      all.release();
      byte[] expected = java.util.Arrays.copyOf(body, 3001);
      expected[3000] = 42;
      org.junit.jupiter.api.Assertions.assertArrayEquals(expected, l.streams.get(1).received());
      assertFalse(l.streams.get(1).stream.isOpen(), "the FIN closed it after its bytes");
    }
  }
}
