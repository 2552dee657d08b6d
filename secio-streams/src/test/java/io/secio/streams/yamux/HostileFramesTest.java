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
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.secio.streams.CollectedStream;
import io.secio.streams.StreamChannel;
import io.secio.streams.StreamChannelBootstrap;
import io.secio.streams.StreamOpener;
import io.secio.streams.yamux.YamuxException.Reason;
import io.secio.testsupport.Collect;
import java.io.ByteArrayOutputStream;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A listener under attack ({@code docs/STREAMS.md} §5): every connection-level violation ends with
 * the open stream seeing a typed {@link YamuxException} first, GoAway with the right code, the close,
 * and nothing of what followed the bad frame delivered; in both profiles the GoAway is out and
 * flushed before the connection's pipeline hears the error, once, so a handler that closes there
 * loses nothing. Then the limits that are not violations: refusals, data on closed streams,
 * keepalive, memory under a flood of SYNs, and pongs bounded by what the peer has not read.
 */
class HostileFramesTest {
  private static final YamuxConfig TENTACLE = YamuxConfig.tentacle();
  private static final int MIB = 1024 * 1024;

  /** A listener with stream 1 open (the client's SYN + 5 bytes read), and what it wrote discarded. */
  private static final class Listener implements AutoCloseable {
    final List<CollectedStream> streams = new ArrayList<>();
    final EmbeddedChannel channel;

    Listener(YamuxConfig config, io.netty.channel.ChannelHandler... before) {
      channel = new EmbeddedChannel();
      channel.pipeline().addLast(before);
      channel.pipeline().addLast(YamuxHandler.server(config, CollectedStream.into(streams)));
      channel.writeInbound(Wire.windowUpdate(FLAG_SYN, 1, 0), Wire.data(0, 1, new byte[] {1, 2, 3, 4, 5}));
      Wire.written(channel);
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
      assertEquals(List.of("active", "exception YamuxException", "inactive"), l.collect().events());
      assertEquals(reason, ((YamuxException) l.collect().exceptions().get(0)).reason());
      assertEquals(5, l.collect().received().length, "nothing after the bad frame");
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
      assertFalse(l.stream().isOpen());
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
      l.stream().config().setAllowHalfClosure(true);
      l.channel.writeInbound(Wire.windowUpdate(FLAG_FIN, 1, 0));
      YamuxException e = assertThrows(YamuxException.class,
          () -> l.channel.writeInbound(Wire.data(0, 1, new byte[] {1})));
      assertEquals(Reason.DATA_AFTER_FIN, e.reason());
    }
  }

  @Test
  void dataOnAClosedStreamIsDroppedAndTheSessionGoesOn() {
    try (Listener l = new Listener(TENTACLE)) {
      l.stream().close();
      l.channel.writeInbound(Wire.data(0, 1, new byte[100]), Wire.windowUpdate(0, 1, 1000),
          Wire.data(FLAG_FIN, 1, new byte[0]));
      assertTrue(l.channel.isActive());
      assertEquals(5, l.collect().received().length);
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

  @Test
  void aGoAwayThePeerNeverReadsClosesTheConnectionAfterTheWriteTimeout() {
    Unread unread = new Unread();
    EmbeddedChannel ch = new EmbeddedChannel(unread, YamuxHandler.client(TENTACLE, null));
    ChannelFuture closed = ch.pipeline().close(); // not ch.close(): EmbeddedChannel's cancels every timer
    assertEquals(1, unread.held.size(), "the GoAway, written and never taken");
    assertTrue(ch.isOpen(), "it waits for the GoAway to go");
    long half = TENTACLE.writeTimeout().toNanos() / 2;
    ch.advanceTimeBy(half, TimeUnit.NANOSECONDS);
    ch.runScheduledPendingTasks();
    assertTrue(ch.isOpen());
    ch.advanceTimeBy(half + 1, TimeUnit.NANOSECONDS);
    ch.runScheduledPendingTasks();
    assertFalse(ch.isOpen(), "closed anyway once its time ran out");
    assertTrue(closed.isSuccess());
    unread.release();
    ch.finishAndReleaseAll();
  }

  /** Holds every write: the peer reads nothing, until {@link #read()}. */
  private static final class Unread extends ChannelOutboundHandlerAdapter {
    final List<Object> held = new ArrayList<>();
    private final List<ChannelPromise> promises = new ArrayList<>();

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
      held.add(msg);
      promises.add(promise);
    }

    /** The peer reads everything written so far: each write completes. */
    void read() {
      List<ChannelPromise> written = new ArrayList<>(promises);
      release();
      written.forEach(ChannelPromise::trySuccess);
    }

    /** Forgets what was written, never read (the writes never complete). */
    void release() {
      held.forEach(ReferenceCountUtil::release);
      held.clear();
      promises.clear();
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
      assertEquals(List.of("active", "exception YamuxException", "inactive"), l.collect().events());
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
      assertEquals(Reason.KEEPALIVE_TIMEOUT, ((YamuxException) l.collect().exceptions().get(0)).reason());
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
      Future<StreamChannel> open = new StreamChannelBootstrap(l.channel).handler(Collect.observing()).open();
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
      Future<StreamChannel> open = new StreamChannelBootstrap(l.channel).handler(Collect.observing()).open();
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
      assertEquals(List.of("active", "exception YamuxException", "inactive"), l.collect().events());
      assertEquals(List.of("000300000000000000000000"), Wire.frames(l.channel).stream().map(Wire.Frame::headerHex)
          .toList(), "answered with GoAway 0, as tentacle does");
    }
  }

  @Test
  void theConnectionClosingWithoutGoAwayIsAnErrorForTheStreams() {
    try (Listener l = new Listener(TENTACLE)) {
      l.channel.pipeline().fireChannelInactive();
      assertEquals(Reason.CONNECTION_CLOSED, ((YamuxException) l.collect().exceptions().get(0)).reason());
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
      org.junit.jupiter.api.Assertions.assertArrayEquals(expected, l.streams.get(1).collect().received());
      assertFalse(l.streams.get(1).stream().isOpen(), "the FIN closed it after its bytes");
    }
  }

  // ---- the order of an end: the GoAway out and flushed, then the pipeline hears, then the close ----

  /** Closes the connection on the error, as the CLI's last handler does, noting what was written by then. */
  private static final class CloseOnError extends ChannelInboundHandlerAdapter {
    final List<Throwable> heard = new ArrayList<>();
    final List<Wire.Frame> writtenWhenHeard = new ArrayList<>();
    boolean openWhenHeard;

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      heard.add(cause);
      openWhenHeard = ctx.channel().isOpen();
      ByteArrayOutputStream flushed = new ByteArrayOutputStream();
      for (Object msg : ((EmbeddedChannel) ctx.channel()).outboundMessages()) {
        flushed.writeBytes(ByteBufUtil.getBytes((ByteBuf) msg));
      }
      writtenWhenHeard.addAll(Wire.parse(flushed.toByteArray()));
      ctx.close();
    }
  }

  /** A listener as {@link Listener}, with {@code last} after the yamux handler. */
  private static Listener listenerWith(YamuxConfig config, CloseOnError last) {
    Listener l = new Listener(config);
    l.channel.pipeline().addLast(last);
    return l;
  }

  static Stream<Arguments> violationsOfEachProfile() {
    List<Arguments> cases = new ArrayList<>();
    for (String profile : List.of("tentacle", "libp2p")) {
      YamuxConfig config = profile.equals("tentacle") ? TENTACLE : YamuxConfig.libp2p();
      cases.add(Arguments.of(profile, config, "Data longer than the max frame",
          Wire.frame(TYPE_DATA, 0, 1, config.maxFrameLength() + 1), Reason.FRAME_TOO_LONG));
      violations().forEach(v -> {
        String name = (String) v.get()[0];
        if (!name.equals("Data longer than the window") && !name.equals("Data longer than the max frame")) {
          cases.add(Arguments.of(profile, config, name, v.get()[1], v.get()[2]));
        }
      });
      cases.add(Arguments.of(profile, config, "a flood of pings read by nobody", null, Reason.CONTROL_FLOOD));
    }
    // The tentacle profile granted stream 1 its whole window in the ACK; 5 bytes of it are used.
    cases.add(Arguments.of("tentacle", TENTACLE, "Data longer than the window",
        Wire.frame(TYPE_DATA, 0, 1, TENTACLE.maxStreamWindow() - 5 + 1), Reason.WINDOW_EXCEEDED));
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}: {2}")
  @MethodSource("violationsOfEachProfile")
  void eachProfileAnswersAViolationWithItsGoAwayBeforeTheHandlerThatClosesHearsIt(String profile,
      YamuxConfig config, String name, ByteBuf bad, Reason reason) {
    CloseOnError last = new CloseOnError();
    Unread unread = new Unread();
    try (Listener l = reason == Reason.CONTROL_FLOOD ? new Listener(config.toBuilder().maxUnreadControlFrames(16)
        .build(), unread) : listenerWith(config, last)) {
      if (reason == Reason.CONTROL_FLOOD) {
        l.channel.pipeline().addLast(last);
        unread.read(); // the ACK of stream 1, and what followed it; from here on the peer reads nothing
        bad = pings(17);
      }
      l.channel.writeInbound(bad);
      l.channel.runPendingTasks();
      assertEquals(1, last.heard.size(), "heard once: " + last.heard);
      assertEquals(reason, ((YamuxException) last.heard.get(0)).reason(), name);
      assertEquals(List.of("active", "exception YamuxException", "inactive"), l.collect().events());
      if (reason == Reason.CONTROL_FLOOD) {
        // Never read, so never written: the GoAway waits behind the pongs, and the close after it.
        assertEquals(16 + 1, unread.held.size());
        assertEquals("000300000000000000000002", Wire.HEX.formatHex(
            ByteBufUtil.getBytes((ByteBuf) unread.held.get(16))));
        return;
      }
      Wire.Frame goAway = last.writtenWhenHeard.get(last.writtenWhenHeard.size() - 1);
      assertEquals(TYPE_GO_AWAY, goAway.type(), "the GoAway went out before the handler heard: " + last.writtenWhenHeard);
      assertEquals(reason.goAwayCode(), goAway.length(), "GoAway code");
      assertTrue(last.openWhenHeard, "the close comes after the handler heard");
      assertFalse(l.channel.isOpen());
      List<Wire.Frame> after = Wire.frames(l.channel);
      assertEquals(goAway.toString(), after.get(after.size() - 1).toString(), "the GoAway is the last frame");
    } finally {
      unread.release();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"tentacle", "libp2p"})
  void thePeersGoAwayWithAnErrorIsAnsweredBeforeTheHandlerThatClosesHearsIt(String profile) {
    CloseOnError last = new CloseOnError();
    try (Listener l = listenerWith(profile.equals("tentacle") ? TENTACLE : YamuxConfig.libp2p(), last)) {
      l.channel.writeInbound(Wire.frame(TYPE_GO_AWAY, 0, 0, 1));
      l.channel.runPendingTasks();
      assertEquals(1, last.heard.size());
      YamuxException e = (YamuxException) last.heard.get(0);
      assertEquals(Reason.PEER_GO_AWAY, e.reason());
      assertEquals(1, e.goAwayCode());
      assertEquals(List.of("000300000000000000000000"), last.writtenWhenHeard.stream().map(Wire.Frame::headerHex)
          .toList(), "GoAway 0 answered first");
      assertFalse(l.channel.isOpen());
      assertEquals(List.of("000300000000000000000000"), Wire.frames(l.channel).stream().map(Wire.Frame::headerHex)
          .toList());
    }
  }

  // ---- pongs and refusals: what the peer has not read, not what one read has not flushed ----

  /** {@code n} Ping SYNs with opaque values 1 to n, as one buffer: one read. */
  private static ByteBuf pings(int n) {
    ByteBuf all = Unpooled.buffer(12 * n);
    for (int i = 1; i <= n; i++) {
      all.writeBytes(Wire.header(TYPE_PING, FLAG_SYN, 0, i));
    }
    return all;
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"tentacle", "libp2p"})
  void aThousandAndTwentyFivePingsInOneReadFromAPeerThatReadsAreAllAnswered(String profile) {
    try (Listener l = new Listener(profile(profile))) {
      l.channel.writeInbound(pings(1025));
      assertTrue(l.channel.isActive());
      List<Wire.Frame> pongs = Wire.frames(l.channel);
      assertEquals(1025, pongs.size());
      for (int i = 0; i < pongs.size(); i++) {
        assertEquals(Wire.HEX.formatHex(Wire.header(TYPE_PING, FLAG_ACK, 0, i + 1)), pongs.get(i).headerHex());
      }
      assertTrue(l.collect().exceptions().isEmpty());
    }
  }

  @Test
  void pingsInOneReadFromAPeerThatReadsNothingAreCutOffAtTheBound() {
    Unread unread = new Unread();
    try (Listener l = new Listener(TENTACLE, unread)) {
      unread.read();
      YamuxException e = assertThrows(YamuxException.class, () -> l.channel.writeInbound(pings(1025)));
      assertEquals(Reason.CONTROL_FLOOD, e.reason());
      assertEquals(1024 + 1, unread.held.size(), "1,024 pongs, then GoAway 2");
      assertEquals("000300000000000000000002", Wire.HEX.formatHex(ByteBufUtil.getBytes((ByteBuf) unread.held.get(1024))));
      assertEquals(List.of("active", "exception YamuxException", "inactive"), l.collect().events());
    } finally {
      unread.release();
    }
  }

  @Test
  void theBoundOnUnreadPongsIsTheConfigs() {
    Unread unread = new Unread();
    try (Listener l = new Listener(TENTACLE.toBuilder().maxUnreadControlFrames(3).build(), unread)) {
      unread.read();
      l.channel.writeInbound(pings(3));
      assertTrue(l.channel.isActive());
      YamuxException e = assertThrows(YamuxException.class, () -> l.channel.writeInbound(pings(1)));
      assertEquals(Reason.CONTROL_FLOOD, e.reason());
      assertEquals("CONTROL_FLOOD: 3 control frames unread by the peer", e.getMessage());
    } finally {
      unread.release();
    }
  }

  // ---- streams opened and reset: every ACK counts against the bound ----

  /** {@code pairs} SYNs from stream id {@code first} on, each reset at once, as one buffer: one read. */
  private static ByteBuf openedAndReset(long first, int pairs) {
    ByteBuf all = Unpooled.buffer(24 * pairs);
    for (int i = 0; i < pairs; i++) {
      all.writeBytes(Wire.header(TYPE_WINDOW_UPDATE, FLAG_SYN, first + 2L * i, 0));
      all.writeBytes(Wire.header(TYPE_WINDOW_UPDATE, FLAG_RST, first + 2L * i, 0));
    }
    return all;
  }

  private static YamuxConfig profile(String name) {
    return name.equals("tentacle") ? TENTACLE : YamuxConfig.libp2p();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"tentacle", "libp2p"})
  void aPeerThatOpensAndResetsStreamsAndReadsNothingIsCutOffAtTheBound(String profile) {
    Unread unread = new Unread();
    try (Listener l = new Listener(profile(profile).toBuilder().maxUnreadControlFrames(64).build(), unread)) {
      unread.read();
      int pairs = 0;
      YamuxException e = null;
      while (e == null && pairs < 10_000) {
        try {
          l.channel.writeInbound(openedAndReset(3 + 2L * pairs++, 1));
        } catch (Exception thrown) { // EmbeddedChannel rethrows what reached its pipeline's tail
          e = assertInstanceOf(YamuxException.class, thrown);
        }
      }
      assertEquals(Reason.CONTROL_FLOOD, e.reason());
      assertEquals("CONTROL_FLOOD: 64 control frames unread by the peer", e.getMessage());
      assertEquals(64 + 1, pairs, "64 ACKs unread; the next SYN ends the session");
      assertEquals(64 + 1, unread.held.size(), "64 ACKs, then GoAway 2");
      assertEquals(1 + 64, l.streams.size(), "no stream for the SYN whose ACK could not go");
      assertEquals("000300000000000000000002", Wire.HEX.formatHex(ByteBufUtil.getBytes((ByteBuf) unread.held.get(64))));
      assertEquals(List.of("active", "exception YamuxException", "inactive"), l.collect().events());
    } finally {
      unread.release();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"tentacle", "libp2p"})
  void tenThousandStreamsOpenedAndResetInOneReadFromAPeerThatReadsAreEachAcked(String profile) {
    try (Listener l = new Listener(profile(profile))) {
      l.channel.writeInbound(openedAndReset(3, 10_000));
      assertTrue(l.channel.isActive());
      List<Wire.Frame> acks = Wire.frames(l.channel);
      assertEquals(10_000, acks.size());
      assertTrue(acks.stream().allMatch(f -> f.flags() == FLAG_ACK));
      assertEquals(10_000 + 1, l.streams.size());
      assertTrue(l.streams.stream().skip(1).noneMatch(c -> c.stream().isOpen()));
    }
  }

  static Stream<Arguments> messages() {
    return Stream.of(
        Arguments.of(Wire.frame(TYPE_DATA, 0, 1, MIB + 1), "FRAME_TOO_LONG: Data frame of 1048577 bytes, over the limit of 1048576"),
        Arguments.of(Wire.frame(TYPE_DATA, 0, 1, MIB + 1 - 5), "WINDOW_EXCEEDED: Data of 1048572 bytes on stream 1, credit 1048571"),
        Arguments.of(Wire.frame(TYPE_DATA, FLAG_SYN, 3, 256 * 1024 + 1),
            "WINDOW_EXCEEDED: Data+SYN of 262145 bytes on stream 3, over the initial window"),
        Arguments.of(Wire.windowUpdate(0, 1, 0xFFFF_FFFFL),
            "WINDOW_OVERFLOW: stream 1: window 262144 + 4294967295 is over 2^32 - 1"),
        Arguments.of(Wire.windowUpdate(FLAG_SYN, 2, 0), "BAD_STREAM_ID: SYN on stream 2, an id of the server's (even)"),
        Arguments.of(Wire.windowUpdate(FLAG_SYN, 1, 0), "DUPLICATE_STREAM: SYN on open stream 1"),
        Arguments.of(Wire.windowUpdate(FLAG_SYN, 0, 0), "BAD_STREAM_ID: WindowUpdate on stream 0"),
        Arguments.of(Wire.frame(TYPE_DATA, 0, 0, 0), "BAD_STREAM_ID: Data on stream 0"),
        Arguments.of(Wire.data(0, 9, new byte[] {1}), "UNKNOWN_STREAM: Data on stream 9, never opened"),
        Arguments.of(Wire.windowUpdate(0, 9, 1), "UNKNOWN_STREAM: WindowUpdate on stream 9, never opened"),
        Arguments.of(Wire.windowUpdate(0, 4, 1), "UNKNOWN_STREAM: WindowUpdate on stream 4, never opened"),
        Arguments.of(Unpooled.wrappedBuffer(new byte[] {1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0}), "BAD_VERSION: version 1"),
        Arguments.of(Wire.frame(4, 0, 1, 0), "BAD_TYPE: type 4"),
        Arguments.of(Wire.frame(TYPE_PING, FLAG_SYN, 1, 7), "BAD_SESSION_FRAME: Ping on stream 1"),
        Arguments.of(Wire.frame(TYPE_GO_AWAY, 0, 1, 0), "BAD_SESSION_FRAME: GoAway on stream 1"),
        Arguments.of(Wire.frame(TYPE_GO_AWAY, 0, 0, 2), "PEER_GO_AWAY: the peer sent GoAway 2"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("messages")
  void eachEndSaysWhichFrameBrokeWhatRule(ByteBuf bad, String message) {
    try (Listener l = new Listener(TENTACLE)) {
      YamuxException e = assertThrows(YamuxException.class, () -> l.channel.writeInbound(bad));
      assertEquals(message, e.getMessage());
    }
  }

  @Test
  void aSynNotAboveThePeersLastIdSaysSo() {
    try (Listener l = new Listener(TENTACLE)) {
      l.channel.writeInbound(Wire.windowUpdate(FLAG_SYN, 7, 0));
      YamuxException e = assertThrows(YamuxException.class, () -> l.channel.writeInbound(Wire.windowUpdate(FLAG_SYN, 5, 0)));
      assertEquals("BAD_STREAM_ID: SYN on stream 5, not above the peer's last, 7", e.getMessage());
    }
  }

  @Test
  void aDialerRefusesASynOnItsOwnParity() {
    EmbeddedChannel dialer =
        new EmbeddedChannel(YamuxHandler.client(TENTACLE, CollectedStream.into(new ArrayList<>())));
    try {
      YamuxException e = assertThrows(YamuxException.class, () -> dialer.writeInbound(Wire.windowUpdate(FLAG_SYN, 1, 0)));
      assertEquals("BAD_STREAM_ID: SYN on stream 1, an id of the client's (odd)", e.getMessage());
      assertEquals("000300000000000000000001", Wire.frames(dialer).get(0).headerHex());
    } finally {
      dialer.finishAndReleaseAll();
    }
  }

  @Test
  void dataAfterFinSaysHowMuchOnWhichStream() {
    try (Listener l = new Listener(TENTACLE)) {
      l.stream().config().setAllowHalfClosure(true);
      l.channel.writeInbound(Wire.windowUpdate(FLAG_FIN, 1, 0));
      YamuxException e = assertThrows(YamuxException.class,
          () -> l.channel.writeInbound(Wire.data(0, 1, new byte[] {1, 2})));
      assertEquals("DATA_AFTER_FIN: 2 bytes on stream 1 after its FIN", e.getMessage());
    }
  }

  // ---- edges of the rules ----

  @Test
  void dataWithRstResetsTheStreamAndItsBodyIsDropped() {
    try (Listener l = new Listener(TENTACLE)) {
      l.channel.writeInbound(Wire.data(FLAG_RST, 1, new byte[] {7, 7}));
      assertEquals(List.of("active", "exception StreamResetException", "inactive"), l.collect().events());
      assertEquals(5, l.collect().received().length);
      assertTrue(l.channel.isActive());
    }
  }

  @Test
  void anEmptyDataFrameAfterTheFinIsNoViolation() {
    try (Listener l = new Listener(TENTACLE)) {
      l.stream().config().setAllowHalfClosure(true);
      l.channel.writeInbound(Wire.windowUpdate(FLAG_FIN, 1, 0), Wire.data(0, 1, new byte[0]));
      assertTrue(l.channel.isActive());
    }
  }

  @Test
  void dataOfExactlyTheCreditLeftIsTaken() {
    try (Listener l = new Listener(TENTACLE.toBuilder().maxFrameLength(2L * MIB).build())) {
      l.channel.writeInbound(Wire.data(0, 1, new byte[MIB - 5]));
      assertTrue(l.channel.isActive());
      assertEquals(MIB, l.collect().received().length);
    }
  }

  @Test
  void aDataSynOfExactlyTheInitialWindowOpensTheStreamWithItsBytes() {
    try (Listener l = new Listener(TENTACLE)) {
      l.channel.writeInbound(Wire.data(FLAG_SYN, 3, new byte[256 * 1024]));
      assertEquals(2, l.streams.size());
      assertEquals(256 * 1024, l.streams.get(1).collect().received().length);
      assertEquals("WindowUpdate flags=2 stream=3 length=786432", Wire.frames(l.channel).get(0).toString());
    }
  }

  @Test
  void aPingWithNeitherFlagIsIgnored() {
    try (Listener l = new Listener(TENTACLE)) {
      l.channel.advanceTimeBy(30, TimeUnit.SECONDS);
      l.channel.runScheduledPendingTasks();
      assertEquals("000200010000000000000001", Wire.frames(l.channel).get(0).headerHex());
      l.channel.writeInbound(Wire.frame(TYPE_PING, 0, 0, 1)); // not an answer: ping 1 stays unanswered
      assertEquals(List.of(), Wire.frames(l.channel));
      l.channel.advanceTimeBy(60, TimeUnit.SECONDS);
      YamuxException e = assertThrows(YamuxException.class, () -> {
        l.channel.runScheduledPendingTasks();
        l.channel.checkException();
      });
      assertEquals(Reason.KEEPALIVE_TIMEOUT, e.reason());
    }
  }

  @Test
  void aFrameForTheNextIdOfOursIsForAStreamNeverOpened() {
    try (Listener l = new Listener(TENTACLE)) {
      YamuxException e = assertThrows(YamuxException.class, () -> l.channel.writeInbound(Wire.windowUpdate(0, 2, 1)));
      assertEquals("UNKNOWN_STREAM: WindowUpdate on stream 2, never opened", e.getMessage());
    }
  }

  @Test
  void afterOurGoAwayNoKeepalivePingGoesOutAndNoStreamOpens() {
    Unread unread = new Unread();
    // The GoAway may take two minutes to be written: the keepalive's tick at 30 s comes first.
    try (Listener l = new Listener(TENTACLE.toBuilder().writeTimeout(Duration.ofMinutes(2)).build(), unread)) {
      unread.release();
      l.channel.pipeline().close(); // GoAway 0, held unread: the connection stays open meanwhile
      unread.release();
      l.channel.advanceTimeBy(31, TimeUnit.SECONDS);
      l.channel.runScheduledPendingTasks();
      assertTrue(l.channel.isOpen());
      assertTrue(unread.held.isEmpty(), "no ping");
      Future<StreamChannel> open = new StreamChannelBootstrap(l.channel).handler(Collect.observing()).open();
      l.channel.runPendingTasks();
      assertEquals("SESSION_CLOSED: the session is going away", open.cause().getMessage());
    } finally {
      unread.release();
    }
  }

  @Test
  void aRemovedHandlerSendsNoMorePings() {
    try (Listener l = new Listener(TENTACLE)) {
      l.channel.pipeline().removeLast();
      l.channel.advanceTimeBy(90, TimeUnit.SECONDS);
      l.channel.runScheduledPendingTasks();
      assertEquals(List.of(), Wire.frames(l.channel));
      assertTrue(l.channel.isOpen());
      assertEquals(Reason.SESSION_CLOSED, ((YamuxException) l.collect().exceptions().get(0)).reason());
    }
  }

  @Test
  void aSessionKeptPastItsConnectionsEndOpensNothing() {
    try (Listener l = new Listener(TENTACLE)) {
      StreamOpener kept = l.channel.attr(StreamOpener.KEY).get();
      l.channel.pipeline().fireChannelInactive(); // the session ends; the connection has not closed itself
      Promise<StreamChannel> open = l.channel.eventLoop().newPromise();
      kept.open(stream -> {}, open);
      assertEquals("SESSION_CLOSED: the session is closed", open.cause().getMessage());
      assertEquals(List.of(), Wire.frames(l.channel));
    }
  }

  @Test
  void aFinThePeerLeftNoRoomForFailsItsShutdownAndTheSessionEndsWithTheFlood() {
    Unread unread = new Unread();
    try (Listener l = new Listener(TENTACLE.toBuilder().maxUnreadControlFrames(2).build(), unread)) {
      unread.read();
      l.channel.writeInbound(pings(2)); // two pongs, unread: the bound
      ChannelFuture fin = l.stream().shutdownOutput();
      l.channel.runPendingTasks();
      assertInstanceOf(ClosedChannelException.class, fin.cause(), "never hangs: the stream closed with its session");
      assertEquals(Reason.CONTROL_FLOOD, assertThrows(YamuxException.class, l.channel::checkException).reason());
      assertFalse(l.channel.isActive() && l.stream().isOpen());
    } finally {
      unread.release();
    }
  }

  @Test
  void aFinWrittenCompletesItsShutdownOnceTheSocketTookIt() {
    Unread unread = new Unread();
    try (Listener l = new Listener(TENTACLE, unread)) {
      unread.read();
      ChannelFuture fin = l.stream().shutdownOutput();
      l.channel.runPendingTasks();
      assertFalse(fin.isDone(), "written, not taken");
      unread.read();
      assertTrue(fin.isSuccess());
    } finally {
      unread.release();
    }
  }
}
