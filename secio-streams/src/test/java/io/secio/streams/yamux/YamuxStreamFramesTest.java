package io.secio.streams.yamux;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.Future;
import io.secio.streams.CollectedStream;
import io.secio.streams.Muxer;
import io.secio.streams.SessionPair;
import io.secio.streams.StreamChannel;
import io.secio.streams.StreamChannelBootstrap;
import io.secio.testsupport.Collect;
import io.secio.testsupport.Echo;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A yamux stream's life in frames ({@code docs/STREAMS.md} §2, §4): close is {@code WindowUpdate FIN},
 * a close that would drop written bytes is {@code WindowUpdate RST}, the session's close is GoAway 0
 * and ends every stream, a violation is GoAway 1 after every stream heard it, an echo answers the
 * peer's half-close with one FIN, and a last message that came with the peer's FIN (in its Data frame
 * or in a WindowUpdate after it, in one read) is answered before the stream closes. The contract
 * every muxer shares is {@code io.secio.streams.StreamChannelTest}'s.
 */
class YamuxStreamFramesTest {
  private static final YamuxConfig CONFIG = YamuxConfig.tentacle();

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void closeSendsFinAndThePeersLaterDataIsDropped() {
    try (SessionPair pair = new SessionPair(Muxer.yamux(CONFIG))) {
      Collect opener = Collect.observing();
      StreamChannel out = pair.open(opener);
      CollectedStream accepted = pair.serverStreams.get(0);
      accepted.stream().config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
      pair.pump();
      pair.client.readOutbound();

      out.close();
      List<Wire.Frame> sent = Wire.frames(pair.client);
      assertEquals(1, sent.size());
      assertEquals("00010004" + "00000001" + "00000000", sent.get(0).headerHex(), "WindowUpdate FIN, length 0");
      pair.server.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_FIN, 1, 0));
      assertEquals(List.of("active", "inputShutdown", "inputShutdownReadComplete"), accepted.collect().events());

      accepted.stream().writeAndFlush(Unpooled.wrappedBuffer(bytes("nobody reads this")));
      pair.pump();
      assertEquals(0, opener.received().length);
      assertTrue(opener.exceptions().isEmpty());
      assertTrue(pair.client.isActive(), "data on a closed stream is dropped, not an error");
    }
  }

  @Test
  void closeWithUnsentBytesResets() {
    try (SessionPair pair = new SessionPair(Muxer.yamux(CONFIG))) {
      StreamChannel out = pair.open(Collect.observing());
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
  void closingTheSessionSendsGoAwayAndEndsEveryStream() {
    try (SessionPair pair = new SessionPair(Muxer.yamux(CONFIG))) {
      Collect a = Collect.observing();
      Collect b = Collect.observing();
      StreamChannel s1 = pair.open(a);
      StreamChannel s2 = pair.open(b);
      pair.client.close();
      pair.pump();
      assertFalse(pair.client.isOpen());
      assertFalse(pair.server.isOpen(), "the peer answers GoAway 0 and closes");
      assertFalse(s1.isOpen());
      assertFalse(s2.isOpen());
      assertTrue(a.exceptions().isEmpty() && b.exceptions().isEmpty(), "an orderly end is no error");
      for (CollectedStream c : pair.serverStreams) {
        assertFalse(c.stream().isOpen());
        assertTrue(c.collect().exceptions().isEmpty());
      }
      Future<StreamChannel> late = new StreamChannelBootstrap(pair.client).handler(Collect.observing()).open();
      pair.client.runPendingTasks();
      assertFalse(late.isSuccess());
    }
  }

  @Test
  void aProtocolViolationReachesEveryStreamAsYamuxException() {
    try (SessionPair pair = new SessionPair(Muxer.yamux(CONFIG))) {
      Collect a = Collect.observing();
      pair.open(a);
      pair.client.readOutbound();
      YamuxException e = assertThrows(YamuxException.class, // a stream never opened
          () -> pair.client.writeInbound(Wire.frame(YamuxFrames.TYPE_DATA, 0, 99, 1)));
      assertEquals(YamuxException.Reason.UNKNOWN_STREAM, e.reason());
      assertEquals(List.of("active", "exception YamuxException", "inactive"), a.events());
      assertEquals(YamuxException.Reason.UNKNOWN_STREAM, ((YamuxException) a.exceptions().get(0)).reason());
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

  /** A listener whose streams echo what they read and flush at read complete, without half-closure. */
  private static EmbeddedChannel echoWithoutHalfClosure() {
    return new EmbeddedChannel(YamuxHandler.server(CONFIG, new Echo()));
  }

  /** What an echo without half-closure wrote for {@code read}: the ACK, the echo, then FIN; never RST. */
  private static void answeredBeforeTheClose(ByteBuf read) {
    EmbeddedChannel server = echoWithoutHalfClosure();
    try {
      server.writeInbound(read); // one read: the message and the FIN arrive together
      server.runPendingTasks();
      List<Wire.Frame> frames = Wire.frames(server);
      assertEquals(List.of("WindowUpdate flags=2 stream=1 length=786432", "Data flags=0 stream=1 length=3",
          "WindowUpdate flags=4 stream=1 length=0"), frames.stream().map(Wire.Frame::toString).toList());
      assertEquals("bye", new String(frames.get(1).body(), StandardCharsets.US_ASCII));
    } finally {
      server.finishAndReleaseAll();
    }
  }

  @Test
  void aLastMessageInADataFrameWithFinIsAnsweredBeforeTheStreamCloses() {
    answeredBeforeTheClose(Unpooled.wrappedBuffer(Wire.windowUpdate(YamuxFrames.FLAG_SYN, 1, 0),
        Wire.data(YamuxFrames.FLAG_FIN, 1, bytes("bye"))));
  }

  @Test
  void aLastMessageThenAWindowUpdateWithFinIsAnsweredBeforeTheStreamCloses() {
    answeredBeforeTheClose(Unpooled.wrappedBuffer(Wire.windowUpdate(YamuxFrames.FLAG_SYN, 1, 0),
        Wire.data(0, 1, bytes("bye")), Wire.windowUpdate(YamuxFrames.FLAG_FIN, 1, 0)));
  }

  /** A listener whose streams echo and answer a half-close with theirs. */
  private static final class EmbeddedChannelServer implements AutoCloseable {
    final io.netty.channel.embedded.EmbeddedChannel channel =
        new io.netty.channel.embedded.EmbeddedChannel(YamuxHandler.server(CONFIG, Echo.allowingHalfClosure()));

    @Override
    public void close() {
      channel.finishAndReleaseAll();
    }
  }
}
