package io.secio.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.secio.testsupport.Collect;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the connection's own events do to a session, on every muxer: a failure below ends it (every
 * stream hears the cause and can write nothing more, the connection's pipeline hears it once, the
 * connection closes) and a later one passes on; the end of the connection's input ends it as a close does; a write to the connection
 * itself fails, its bytes released; what is not a {@code ByteBuf} passes the muxer by.
 */
class ConnectionEventsTest {
  static Stream<Muxer> muxers() {
    return Muxer.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void aFailureBelowEndsTheSessionOnceAndALaterOnePassesOn(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      Collect ours = Collect.observing();
      pair.open(ours);
      IOException below = new IOException("the socket broke");
      pair.client.pipeline().fireExceptionCaught(below);
      pair.client.runPendingTasks();
      assertSame(below, ours.exceptions().get(0), "the stream hears the cause itself");
      assertTrue(pair.client.outboundMessages().isEmpty(), "no goodbye and no reset over a failed connection");
      assertEquals(List.of("active", "exception IOException", "inactive"), ours.events());
      assertSame(below, assertThrows(IOException.class, pair.client::checkException), "the pipeline, once");
      assertFalse(pair.client.isOpen());
      IOException later = new IOException("and again");
      pair.client.pipeline().fireExceptionCaught(later);
      assertSame(later, assertThrows(IOException.class, pair.client::checkException), "after the end: passed on");
    }
  }

  /** On hearing its connection failed, tries to write and to half-close; records what it was told. */
  private static final class WriteOnFailure extends ChannelInboundHandlerAdapter {
    final List<Object> heard = new ArrayList<>();

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      StreamChannel stream = (StreamChannel) ctx.channel();
      heard.add(stream.isOpen() && stream.isOutputShutdown());
      heard.add(ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1})).cause().getClass());
      heard.add(stream.shutdownOutput().cause().getClass());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void aStreamHearingItsConnectionFailedCanWriteNothingMore(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      WriteOnFailure stream = new WriteOnFailure();
      pair.open(stream);
      pair.client.pipeline().fireExceptionCaught(new IOException("the socket broke"));
      pair.client.runPendingTasks();
      assertEquals(List.of(true, ClosedChannelException.class, ClosedChannelException.class), stream.heard,
          "still open while it hears why, but its output is gone");
      assertTrue(pair.client.outboundMessages().isEmpty(), "no frame after the failure");
      assertThrows(IOException.class, pair.client::checkException);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void theEndOfTheConnectionsInputEndsTheSessionAndClosesIt(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      StreamChannel ours = pair.open(Collect.observing());
      pair.client.pipeline().fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
      pair.client.runPendingTasks();
      assertTrue(pair.client.outboundMessages().isEmpty(), "ended as a closed connection is: no goodbye written");
      assertFalse(ours.isOpen());
      assertFalse(pair.client.isOpen());
      assertNull(pair.client.attr(StreamOpener.KEY).get(), "the muxer left the connection");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("muxers")
  void theConnectionCarriesFramesOnlyAndPassesOnWhatIsNotBytes(Muxer muxer) {
    try (SessionPair pair = new SessionPair(muxer)) {
      var written = pair.client.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1}));
      assertInstanceOf(UnsupportedOperationException.class, written.cause());
      Object notBytes = "an event";
      pair.client.writeInbound(notBytes);
      assertSame(notBytes, pair.client.readInbound(), "passed by, untouched");
      assertTrue(pair.client.isActive());
    }
  }
}
