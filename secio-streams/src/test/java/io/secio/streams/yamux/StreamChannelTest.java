package io.secio.streams.yamux;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.Future;
import io.secio.streams.StreamChannel;
import io.secio.streams.StreamChannelBootstrap;
import io.secio.streams.StreamResetException;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The child-channel contract on yamux ({@code docs/STREAMS.md} §2), two sessions in memory: streams
 * open from either side, carry bytes both ways, half-close each way, close with FIN, reset each way,
 * and end with their session.
 */
class StreamChannelTest {
  private static final YamuxConfig CONFIG = YamuxConfig.tentacle();

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void bytesGoBothWaysOnStreamsOpenedFromEitherSide() {
    try (SessionPair pair = new SessionPair(CONFIG)) {
      Collect opener = new Collect();
      StreamChannel out = pair.open(opener);
      assertTrue(out.isInitiator());
      assertEquals(1, out.streamId());
      assertEquals(1, pair.serverStreams.size());
      StreamChannel in = pair.serverStreams.get(0).stream;
      assertFalse(in.isInitiator());
      assertEquals(1, in.streamId());
      assertEquals(pair.server, in.parent());

      out.writeAndFlush(Unpooled.wrappedBuffer(bytes("hello")));
      in.writeAndFlush(Unpooled.wrappedBuffer(bytes("world")));
      pair.pump();
      assertArrayEquals(bytes("hello"), pair.serverStreams.get(0).received());
      assertArrayEquals(bytes("world"), opener.received());

      Future<StreamChannel> fromServer = new StreamChannelBootstrap(pair.server).handler(new Collect()).open();
      pair.pump();
      StreamChannel even = fromServer.getNow();
      assertEquals(2, even.streamId());
      assertEquals(1, pair.clientStreams.size());
      assertEquals(2, pair.clientStreams.get(0).stream.streamId());
    }
  }

  @Test
  void optionsAndAttributesApplyBeforeTheHandlerRuns() {
    AttributeKey<String> key = AttributeKey.valueOf("streamTest");
    try (SessionPair pair = new SessionPair(CONFIG)) {
      Collect c = new Collect();
      Future<StreamChannel> f = new StreamChannelBootstrap(pair.client)
          .option(ChannelOption.AUTO_READ, false).option(ChannelOption.ALLOW_HALF_CLOSURE, true)
          .attr(key, "v").handler(c).open();
      pair.pump();
      StreamChannel s = f.getNow();
      assertFalse(s.config().isAutoRead());
      assertEquals(Boolean.TRUE, s.config().getOption(ChannelOption.ALLOW_HALF_CLOSURE));
      assertEquals("v", s.attr(key).get());
    }
  }

  @Test
  void shutdownOutputIsHalfCloseAfterEverythingWritten() {
    try (SessionPair pair = new SessionPair(CONFIG)) {
      Collect opener = new Collect();
      StreamChannel out = pair.open(opener);
      Collect accepted = pair.serverStreams.get(0);
      accepted.stream.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);

      out.write(Unpooled.wrappedBuffer(bytes("all of ")));
      out.write(Unpooled.wrappedBuffer(bytes("this")));
      ChannelFuture shut = out.shutdownOutput(); // no flush: the half-close flushes what came before
      pair.pump();
      assertTrue(shut.isSuccess());
      assertTrue(out.isOutputShutdown());
      assertArrayEquals(bytes("all of this"), accepted.received());
      assertEquals(List.of("active", "inputShutdown", "inputShutdownReadComplete"), accepted.events);
      assertTrue(accepted.stream.isInputShutdown());

      // The other direction still works, until it half-closes too: then both ends close.
      accepted.stream.writeAndFlush(Unpooled.wrappedBuffer(bytes("reply")));
      pair.pump();
      assertArrayEquals(bytes("reply"), opener.received());
      assertFalse(out.write(Unpooled.wrappedBuffer(bytes("late"))).isSuccess());
      accepted.stream.shutdownOutput();
      pair.pump();
      assertFalse(accepted.stream.isOpen());
      assertFalse(out.isOpen());
      assertTrue(opener.errors.isEmpty() && accepted.errors.isEmpty());
    }
  }

  @Test
  void peerHalfCloseWithoutHalfClosureClosesTheStreamAndAnswersFin() {
    try (SessionPair pair = new SessionPair(CONFIG)) {
      Collect opener = new Collect();
      StreamChannel out = pair.open(opener);
      pair.client.readOutbound();
      out.writeAndFlush(Unpooled.wrappedBuffer(bytes("x")));
      out.shutdownOutput();
      pair.pump();
      Collect accepted = pair.serverStreams.get(0);
      assertArrayEquals(bytes("x"), accepted.received());
      assertFalse(accepted.stream.isOpen());
      assertEquals(List.of("active", "inactive"), accepted.events);
      assertFalse(out.isOpen(), "the FIN answer ends the opener's half-closed stream");
      assertTrue(opener.errors.isEmpty());
    }
  }

  @Test
  void closeSendsFinAndThePeersLaterDataIsDropped() {
    try (SessionPair pair = new SessionPair(CONFIG)) {
      Collect opener = new Collect();
      StreamChannel out = pair.open(opener);
      Collect accepted = pair.serverStreams.get(0);
      accepted.stream.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
      pair.pump();
      pair.client.readOutbound();

      out.close();
      List<Wire.Frame> sent = Wire.frames(pair.client);
      assertEquals(1, sent.size());
      assertEquals("00010004" + "00000001" + "00000000", sent.get(0).headerHex(), "WindowUpdate FIN, length 0");
      pair.server.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_FIN, 1, 0));
      assertEquals(List.of("active", "inputShutdown", "inputShutdownReadComplete"), accepted.events);

      accepted.stream.writeAndFlush(Unpooled.wrappedBuffer(bytes("nobody reads this")));
      pair.pump();
      assertEquals(0, opener.received().length);
      assertTrue(opener.errors.isEmpty());
      assertTrue(pair.client.isActive(), "data on a closed stream is dropped, not an error");
    }
  }

  @Test
  void closeWithUnsentBytesResets() {
    try (SessionPair pair = new SessionPair(CONFIG)) {
      StreamChannel out = pair.open(new Collect());
      pair.client.readOutbound();
      // More than the peer's 1 MiB window: the rest waits, so a close must not look complete.
      ChannelFuture big = out.writeAndFlush(Unpooled.wrappedBuffer(new byte[2 * 1024 * 1024]));
      out.close();
      assertFalse(big.isSuccess());
      assertInstanceOf(ClosedChannelException.class, big.cause());
      List<Wire.Frame> sent = Wire.frames(pair.client);
      Wire.Frame last = sent.get(sent.size() - 1);
      assertEquals(YamuxFrames.FLAG_RST, last.flags());
      assertEquals(YamuxFrames.TYPE_WINDOW_UPDATE, last.type());
    }
  }

  @Test
  void resetEachWay() {
    try (SessionPair pair = new SessionPair(CONFIG)) {
      Collect opener = new Collect();
      StreamChannel out = pair.open(opener);
      Collect accepted = pair.serverStreams.get(0);
      out.reset();
      pair.pump();
      assertFalse(out.isOpen());
      assertEquals(List.of("active", "exception StreamResetException", "inactive"), accepted.events);
      assertEquals(1, ((StreamResetException) accepted.errors.get(0)).streamId());
      assertTrue(opener.errors.isEmpty());

      Collect second = new Collect();
      StreamChannel out2 = pair.open(second);
      pair.serverStreams.get(1).stream.reset();
      pair.pump();
      assertFalse(out2.isOpen());
      assertEquals(List.of("active", "exception StreamResetException", "inactive"), second.events);
    }
  }

  @Test
  void closingTheSessionSendsGoAwayAndEndsEveryStream() {
    try (SessionPair pair = new SessionPair(CONFIG)) {
      Collect a = new Collect();
      Collect b = new Collect();
      StreamChannel s1 = pair.open(a);
      StreamChannel s2 = pair.open(b);
      pair.client.close();
      pair.pump();
      assertFalse(pair.client.isOpen());
      assertFalse(pair.server.isOpen(), "the peer answers GoAway 0 and closes");
      assertFalse(s1.isOpen());
      assertFalse(s2.isOpen());
      assertTrue(a.errors.isEmpty() && b.errors.isEmpty(), "an orderly end is no error");
      for (Collect c : pair.serverStreams) {
        assertFalse(c.stream.isOpen());
        assertTrue(c.errors.isEmpty());
      }
      Future<StreamChannel> late = new StreamChannelBootstrap(pair.client).handler(new Collect()).open();
      pair.client.runPendingTasks();
      assertFalse(late.isSuccess());
    }
  }

  @Test
  void aProtocolViolationReachesEveryStreamAsYamuxException() {
    try (SessionPair pair = new SessionPair(CONFIG)) {
      Collect a = new Collect();
      pair.open(a);
      pair.client.readOutbound();
      YamuxException e = assertThrows(YamuxException.class, // a stream never opened
          () -> pair.client.writeInbound(Wire.frame(YamuxFrames.TYPE_DATA, 0, 99, 1)));
      assertEquals(YamuxException.Reason.UNKNOWN_STREAM, e.reason());
      assertEquals(List.of("active", "exception YamuxException", "inactive"), a.events);
      assertEquals(YamuxException.Reason.UNKNOWN_STREAM, ((YamuxException) a.errors.get(0)).reason());
      List<Wire.Frame> sent = Wire.frames(pair.client);
      assertEquals("000300000000000000000001", sent.get(sent.size() - 1).headerHex(), "GoAway 1");
      assertFalse(pair.client.isOpen());
    }
  }

  @Test
  void anEchoThatAnswersTheHalfCloseSendsOneFin() {
    try (EmbeddedChannelServer server = new EmbeddedChannelServer()) {
      server.channel.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_SYN, 1, 0), Wire.data(0, 1, bytes("abc")),
          Wire.windowUpdate(YamuxFrames.FLAG_FIN, 1, 0));
      server.channel.runPendingTasks();
      List<Wire.Frame> frames = Wire.frames(server.channel);
      assertEquals(1, frames.stream().filter(f -> (f.flags() & YamuxFrames.FLAG_FIN) != 0).count(), frames.toString());
      assertEquals("abc", new String(frames.stream().filter(f -> f.type() == YamuxFrames.TYPE_DATA)
          .findFirst().orElseThrow().body(), StandardCharsets.US_ASCII));
    }
  }

  /** A listener whose streams echo and answer a half-close with theirs. */
  private static final class EmbeddedChannelServer implements AutoCloseable {
    final io.netty.channel.embedded.EmbeddedChannel channel =
        new io.netty.channel.embedded.EmbeddedChannel(YamuxHandler.server(CONFIG, TestStreams.ECHO_STREAMS));

    @Override
    public void close() {
      channel.finishAndReleaseAll();
    }
  }
}
