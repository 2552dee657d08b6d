package io.secio.testsupport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** {@link Echo} and {@link Collect} on embedded channels. */
class HandlersTest {
  @Test
  void echoWritesEveryReadBackAndCountsIt() {
    AtomicLong echoed = new AtomicLong();
    EmbeddedChannel channel = new EmbeddedChannel(new Echo(echoed));
    channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {1, 2, 3}), Unpooled.wrappedBuffer(new byte[] {4}));
    ByteBuf first = channel.readOutbound();
    ByteBuf second = channel.readOutbound();
    assertEquals(Unpooled.wrappedBuffer(new byte[] {1, 2, 3}), first);
    assertEquals(Unpooled.wrappedBuffer(new byte[] {4}), second);
    first.release();
    second.release();
    assertEquals(4, echoed.get());
    channel.pipeline().fireExceptionCaught(new IOException("gone"));
    assertFalse(channel.isOpen(), "an exception closes the channel");
    assertFalse(channel.finishAndReleaseAll());
  }

  @Test
  void anEchoPassingExceptionsOnLeavesTheChannelToTheNextHandler() {
    Collect after = Collect.observing();
    EmbeddedChannel channel = new EmbeddedChannel(Echo.passingExceptionsOn(), after);
    channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {5}));
    ByteBuf echoed = channel.readOutbound();
    assertEquals(Unpooled.wrappedBuffer(new byte[] {5}), echoed);
    echoed.release();
    assertEquals(0, after.received().length, "the echo takes the reads");
    IOException gone = new IOException("gone");
    channel.pipeline().fireExceptionCaught(gone);
    assertEquals(List.of(gone), after.exceptions(), "the exception went on");
    assertTrue(channel.isOpen(), "and nobody closed the channel");
    assertFalse(channel.finishAndReleaseAll());
  }

  @Test
  void collectKeepsMessagesApartAndBytesInOrder() {
    Collect collect = new Collect();
    EmbeddedChannel channel = new EmbeddedChannel(collect);
    ByteBuf one = Unpooled.wrappedBuffer(new byte[] {1, 2});
    ByteBuf two = Unpooled.wrappedBuffer(new byte[] {3});
    channel.writeInbound(one, two);
    assertEquals(0, one.refCnt(), "released");
    assertEquals(0, two.refCnt(), "released");
    assertArrayEquals(new byte[] {1, 2}, collect.nextMessage());
    assertArrayEquals(new byte[] {3}, collect.nextMessage());
    assertArrayEquals(new byte[] {1, 2, 3}, collect.awaitBytes(3));
    channel.close();
    assertArrayEquals(new byte[] {1, 2, 3}, collect.awaitEnd());
    assertEquals(List.of("active", "inactive"), collect.events());
    AssertionFailedError e = assertThrows(AssertionFailedError.class, () -> collect.awaitBytes(4));
    assertTrue(e.getMessage().startsWith("the channel closed after 3 of 4 bytes"), e.getMessage());
    assertThrows(AssertionFailedError.class, collect::awaitHalfClose);
    assertFalse(channel.finishAndReleaseAll());
  }

  @Test
  void collectRecordsAnExceptionAndClosesUnlessObserving() {
    Collect closing = new Collect();
    EmbeddedChannel channel = new EmbeddedChannel(closing);
    IOException gone = new IOException("gone");
    channel.pipeline().fireExceptionCaught(gone);
    assertEquals(gone, closing.awaitException());
    assertFalse(channel.isOpen());
    assertFalse(channel.finishAndReleaseAll());

    Collect observing = Collect.observing();
    channel = new EmbeddedChannel(observing);
    channel.pipeline().fireExceptionCaught(gone);
    assertEquals(List.of("active", "exception IOException"), observing.events());
    assertTrue(channel.isOpen());
    assertFalse(channel.finishAndReleaseAll());
  }
}
