package io.secio.tentacle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.Future;
import io.secio.streams.StreamChannel;
import io.secio.tentacle.TentacleException.Reason;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A tentacle session's rules ({@code docs/STREAMS.md} §8.2 to §8.4), our dialer against our
 * listener and against hand-made frames: versions chosen each way, one stream per protocol, refusals,
 * the message limit, the select timeout, the session timeout, and the dialer's first write.
 */
class SessionTest {
  private static TentacleConfig dialerConfig(TestProtocols.Collect collect) {
    return TentacleConfig.builder()
        .protocol(TentacleProtocol.of(TestProtocols.ECHO, List.of("1", "2"), collect))
        .protocol(TentacleProtocol.of("/test/unknown-there", List.of("1"), collect))
        .build();
  }

  private static StreamChannel opened(Future<StreamChannel> open) {
    assertTrue(open.isDone(), "done");
    assertTrue(open.isSuccess(), () -> "opened: " + open.cause());
    return open.getNow();
  }

  private static String version(StreamChannel stream) {
    return Tentacle.protocol(stream).orElseThrow().version().orElseThrow();
  }

  private static TentacleException.Reason failure(Future<?> future) {
    assertTrue(future.isDone(), "done");
    return assertInstanceOf(TentacleException.class, future.cause()).reason();
  }

  @Test
  void versionsAreChosenAsTentacleChoosesThemEachWay() {
    TestProtocols.Collect collect = new TestProtocols.Collect();
    try (EmbeddedPair pair = new EmbeddedPair(dialerConfig(collect), TestProtocols.listener())) {
      Future<StreamChannel> open = pair.dialerSession.openStream(TestProtocols.ECHO, List.of("1", "2"), collect);
      pair.pump();
      StreamChannel echo = opened(open);
      assertEquals("2", version(echo), "ascending offer: the highest common version");
      echo.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1, 2, 3}));
      pair.pump();
      assertArrayEquals(new byte[] {1, 2, 3}, collect.messages.poll());
      echo.close();
      pair.pump();
      Future<StreamChannel> again = pair.dialerSession.openStream(TestProtocols.ECHO, List.of("2", "1"), collect);
      pair.pump();
      assertEquals("1", version(opened(again)), "tentacle's quirk: a descending offer gets 1");
      assertEquals(TestProtocols.ECHO, Tentacle.protocol(opened(again)).orElseThrow().name());
    }
  }

  @Test
  void aSecondOpenOfTheSameProtocolFailsAndPutsNothingOnTheWire() {
    try (EmbeddedPair pair = new EmbeddedPair(dialerConfig(new TestProtocols.Collect()), TestProtocols.listener())) {
      TestProtocols.Collect collect = new TestProtocols.Collect();
      Future<StreamChannel> first = pair.dialerSession.openStream(TestProtocols.ECHO, collect);
      Future<StreamChannel> second = pair.dialerSession.openStream(TestProtocols.ECHO, collect);
      assertEquals(Reason.ALREADY_OPEN, failure(second), "while the first is opening");
      pair.pump();
      opened(first);
      pair.dialer.runPendingTasks();
      Future<StreamChannel> third = pair.dialerSession.openStream(TestProtocols.ECHO, collect);
      assertEquals(Reason.ALREADY_OPEN, failure(third), "while the first is open");
      assertTrue(Recorded.written(pair.dialer).length == 0, "nothing written for them");
      assertEquals(1, pair.listenerSession.openCount());
    }
  }

  @Test
  void aSecondStreamOfAnOpenProtocolFromThePeerIsAnsweredThenReset() {
    EmbeddedChannel listener = new EmbeddedChannel(Tentacle.insecureServer(TestProtocols.listener()));
    byte[] offer = new ProtocolInfo(TestProtocols.ECHO, List.of("1")).encode();
    for (int stream : new int[] {1, 3}) {
      listener.writeInbound(Unpooled.wrappedBuffer(header(1, 1, stream, 0)),
          Unpooled.wrappedBuffer(header(0, 0, stream, offer.length + 4)),
          Unpooled.buffer().writeInt(offer.length).writeBytes(offer));
    }
    listener.runPendingTasks();
    List<String> frames = new ArrayList<>();
    Recorded.frames(Recorded.written(listener)).forEach(f -> frames.add(f.stream() + ":" + f.type() + ":" + f.flags()));
    // ACK, reply ["1"] on 1; ACK, the same reply, then RST on 3, as tentacle drops a second stream.
    assertEquals(List.of("1:1:2", "1:0:0", "3:1:2", "3:0:0", "3:1:8"), frames);
    assertEquals(1, Tentacle.sessionFuture(listener).getNow().openCount());
    assertTrue(listener.isOpen());
    listener.close();
    Recorded.written(listener);
    assertFalse(listener.finishAndReleaseAll());
  }

  @Test
  void aProtocolTheListenerDoesNotHaveIsRefused() {
    try (EmbeddedPair pair = new EmbeddedPair(dialerConfig(new TestProtocols.Collect()), TestProtocols.listener())) {
      TestProtocols.Collect collect = new TestProtocols.Collect();
      Future<StreamChannel> open = pair.dialerSession.openStream("/test/unknown-there", collect);
      pair.pump();
      assertEquals(Reason.PROTOCOL_REFUSED, failure(open));
      assertEquals(Reason.UNKNOWN_PROTOCOL, failure(pair.dialerSession.openStream("/never/registered", collect)));
      assertThrows(IllegalArgumentException.class,
          () -> pair.dialerSession.openStream(TestProtocols.ECHO, List.of(), collect).sync());
      assertTrue(pair.dialer.isOpen() && pair.listener.isOpen(), "the session goes on");
    }
  }

  @Test
  void aMessageOverTheLimitResetsTheStreamAndFailsAWrite() {
    TestProtocols.Collect collect = new TestProtocols.Collect();
    TentacleConfig small = TentacleConfig.builder()
        .protocol(TentacleProtocol.of(TestProtocols.ECHO, List.of("1"), new TestProtocols.Echo()).withMaxMessageLength(100))
        .build();
    TentacleConfig dialer = TentacleConfig.builder()
        .protocol(TentacleProtocol.of(TestProtocols.ECHO, List.of("1"), collect).withMaxMessageLength(1000))
        .build();
    try (EmbeddedPair pair = new EmbeddedPair(dialer, small)) {
      StreamChannel echo = openNow(pair, collect);
      assertFalse(echo.writeAndFlush(Unpooled.wrappedBuffer(new byte[1001])).isSuccess(),
          "over our own limit: the write fails");
      echo.writeAndFlush(Unpooled.wrappedBuffer(new byte[100]));
      pair.pump();
      assertEquals(100, collect.messages.poll().length, "at the limit: echoed");
      echo.writeAndFlush(Unpooled.wrappedBuffer(new byte[101]));
      pair.pump();
      assertFalse(echo.isActive(), "the listener reset the stream");
      assertEquals(0, pair.listenerSession.openCount());
      assertTrue(pair.listener.isOpen(), "the session goes on");
    }
  }

  /** Closes its stream on any exception, as many a protocol handler does. */
  @ChannelHandler.Sharable
  private static final class ClosesOnException extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ctx.writeAndFlush(msg);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }

  @Test
  void anOverLimitMessageResetsTheStreamEvenWhenItsHandlerClosesItOnHearingOfIt() {
    TentacleConfig listener = TentacleConfig.builder()
        .protocol(TentacleProtocol.of(TestProtocols.ECHO, List.of("1"), new ClosesOnException()).withMaxMessageLength(100))
        .build();
    TentacleConfig dialer = TentacleConfig.builder()
        .protocol(TentacleProtocol.of(TestProtocols.ECHO, List.of("1"), new TestProtocols.Collect()))
        .build();
    try (EmbeddedPair pair = new EmbeddedPair(dialer, listener)) {
      StreamChannel echo = openNow(pair, new TestProtocols.Collect());
      echo.writeAndFlush(Unpooled.wrappedBuffer(new byte[101]));
      pair.dialer.runPendingTasks();
      for (Object frame; (frame = pair.dialer.readOutbound()) != null; ) {
        pair.listener.writeInbound(frame);
      }
      pair.listener.runPendingTasks();
      List<Recorded.Frame> answer = Recorded.frames(Recorded.written(pair.listener));
      assertFalse(answer.isEmpty(), "the listener answered");
      for (Recorded.Frame f : answer) {
        assertEquals(0, f.flags() & 4, "no FIN: " + f.describe());
      }
      assertEquals(8, answer.get(answer.size() - 1).flags() & 8, "a RST: " + answer.get(answer.size() - 1).describe());
      assertEquals(0, pair.listenerSession.openCount());
    }
  }

  /** Sharable by its own say, as Netty lets a handler decide ({@code ChannelHandlerAdapter.isSharable}). */
  private static final class SaysSharable extends ChannelInboundHandlerAdapter {
    @Override
    public boolean isSharable() {
      return true;
    }
  }

  @Test
  void aProtocolsHandlerIsSharableByNettysOwnTest() {
    TentacleProtocol.of(TestProtocols.ECHO, List.of("1"), new SaysSharable());
    assertThrows(IllegalArgumentException.class,
        () -> TentacleProtocol.of(TestProtocols.ECHO, List.of("1"), new ChannelInboundHandlerAdapter()));
  }

  private static StreamChannel openNow(EmbeddedPair pair, ChannelHandler handler) {
    Future<StreamChannel> open = pair.dialerSession.openStream(TestProtocols.ECHO, handler);
    pair.pump();
    return opened(open);
  }

  @Test
  void aSelectionThatTimesOutResetsTheStream() {
    EmbeddedChannel dialer = new EmbeddedChannel(Tentacle.insecureClient(dialerConfig(new TestProtocols.Collect())));
    Future<StreamChannel> open = Tentacle.sessionFuture(dialer).getNow()
        .openStream(TestProtocols.ECHO, new TestProtocols.Collect());
    dialer.runPendingTasks();
    Recorded.written(dialer);
    dialer.advanceTimeBy(TentacleConfig.DEFAULT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    dialer.runScheduledPendingTasks();
    dialer.runPendingTasks();
    assertEquals(Reason.SELECT_TIMEOUT, failure(open));
    List<Recorded.Frame> after = Recorded.frames(Recorded.written(dialer));
    assertEquals(8, after.get(0).flags(), "RST on the stream: " + after.get(0).describe());
    assertEquals(1, after.get(0).stream());
    assertEquals(3, after.get(after.size() - 1).type(), "and no protocol open: the session's GoAway 0");
    assertFalse(dialer.isOpen());
    assertFalse(dialer.finishAndReleaseAll());
  }

  @Test
  void aSessionWithAProtocolOpenOutlivesTheSessionTimeout() {
    try (EmbeddedPair pair = new EmbeddedPair(dialerConfig(new TestProtocols.Collect()), TestProtocols.listener())) {
      openNow(pair, new TestProtocols.Collect());
      for (EmbeddedChannel c : List.of(pair.dialer, pair.listener)) {
        c.advanceTimeBy(TentacleConfig.DEFAULT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        c.runScheduledPendingTasks();
      }
      pair.pump();
      assertTrue(pair.dialer.isOpen() && pair.listener.isOpen());
    }
  }

  @Test
  void theDialersFirstFlushIsOver16Bytes() {
    // A tentacle listener waits for 16 bytes before it starts (the recordings' README): the SYN
    // (12 bytes) must not go out alone.
    List<Integer> flushes = new ArrayList<>();
    EmbeddedChannel dialer = new EmbeddedChannel(new ChannelDuplexHandler() {
      int pending;

      @Override
      public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        pending += ((ByteBuf) msg).readableBytes();
        ctx.write(msg, promise);
      }

      @Override
      public void flush(ChannelHandlerContext ctx) {
        if (pending > 0) {
          flushes.add(pending);
          pending = 0;
        }
        ctx.flush();
      }
    }, Tentacle.insecureClient(dialerConfig(new TestProtocols.Collect())));
    Tentacle.sessionFuture(dialer).getNow().openStream(TestProtocols.ECHO, new TestProtocols.Collect());
    dialer.runPendingTasks();
    assertEquals(List.of(12 + 12 + 4 + 48), flushes, "SYN and the offer [1,2] in one flush");
    dialer.close();
    Recorded.written(dialer);
    assertFalse(dialer.finishAndReleaseAll());
  }

  private static byte[] header(int type, int flags, int stream, int length) {
    return java.nio.ByteBuffer.allocate(12).put((byte) 0).put((byte) type).putShort((short) flags)
        .putInt(stream).putInt(length).array();
  }
}
