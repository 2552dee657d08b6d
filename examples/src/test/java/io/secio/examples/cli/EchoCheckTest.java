package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.Future;
import io.secio.examples.cli.EchoCheck.Framing;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The echo check behind {@code dial --protocol} and {@code dial --muxer ... --send-bytes}, on an
 * embedded channel: only what was sent may come back, and the time runs from {@code start}.
 */
class EchoCheckTest {
  private static final int MESSAGE_SIZE = 100;

  /** Starts {@code check} on {@code channel} and returns what it wrote, message by message. */
  private static Future<Long> start(EchoCheck check, EmbeddedChannel channel, List<ByteBuf> written) {
    Future<Long> result = check.start(channel);
    channel.runPendingTasks();
    for (ByteBuf message; (message = channel.readOutbound()) != null; ) {
      written.add(message);
    }
    return result;
  }

  private static String failure(Future<Long> result) {
    assertTrue(result.isDone() && !result.isSuccess(), () -> "not failed: " + result);
    return result.cause().getMessage();
  }

  @Test
  void aMessageBeforeAnythingWasSentFailsTheCheckEvenOfNoBytes() {
    // As a tentacle node did: an empty message on the stream before the dialer started.
    EchoCheck check = new EchoCheck(0, MESSAGE_SIZE, 1, Framing.MESSAGES, Long.MAX_VALUE);
    EmbeddedChannel channel = new EmbeddedChannel(check);
    channel.writeInbound(Unpooled.EMPTY_BUFFER);
    Future<Long> result = start(check, channel, new ArrayList<>());
    assertEquals("the peer sent a message of 0 bytes before anything was sent to it", failure(result));
    assertFalse(channel.isOpen(), "a failed check closes the stream");
    assertFalse(channel.finishAndReleaseAll());
  }

  @Test
  void bytesBeforeAnythingWasSentFailTheCheck() {
    EchoCheck check = new EchoCheck(1000, MESSAGE_SIZE, 1, Framing.BYTES, MESSAGE_SIZE);
    EmbeddedChannel channel = new EmbeddedChannel(check);
    channel.writeInbound(Unpooled.wrappedBuffer(new byte[3]));
    Future<Long> result = start(check, channel, new ArrayList<>());
    assertEquals("the peer sent 3 bytes before anything was sent to it", failure(result));
    assertFalse(channel.finishAndReleaseAll());
  }

  @Test
  void anEmptyMessageAmongTheEchoFailsTheCheck() {
    EchoCheck check = new EchoCheck(1000, MESSAGE_SIZE, 2, Framing.MESSAGES, Long.MAX_VALUE);
    EmbeddedChannel channel = new EmbeddedChannel(check);
    List<ByteBuf> written = new ArrayList<>();
    Future<Long> result = start(check, channel, written);
    assertEquals(10, written.size());
    channel.writeInbound(written.get(0));
    channel.writeInbound(Unpooled.EMPTY_BUFFER);
    assertEquals("the peer sent an empty message after 100 bytes echoed: no empty message was sent to it",
        failure(result));
    written.subList(1, written.size()).forEach(ByteBuf::release);
    assertFalse(channel.finishAndReleaseAll());
  }

  @Test
  void moreThanWasSentSoFarFailsTheCheckBeforeItsBytesAreCompared() {
    // The window lets one message out; the peer answers with more than that one.
    EchoCheck check = new EchoCheck(1000, MESSAGE_SIZE, 3, Framing.BYTES, MESSAGE_SIZE);
    EmbeddedChannel channel = new EmbeddedChannel(check);
    List<ByteBuf> written = new ArrayList<>();
    Future<Long> result = start(check, channel, written);
    assertEquals(1, written.size());
    channel.writeInbound(Unpooled.wrappedBuffer(written.get(0), Unpooled.wrappedBuffer(new byte[1])));
    assertEquals("the peer sent back 101 bytes when 100 had been sent to it", failure(result));
    assertFalse(channel.finishAndReleaseAll());
  }

  @Test
  void theWholeEchoCompletesTheCheckTimedFromItsStart() {
    EchoCheck check = new EchoCheck(1000, MESSAGE_SIZE, 4, Framing.MESSAGES, Long.MAX_VALUE);
    EmbeddedChannel channel = new EmbeddedChannel(check);
    long before = System.nanoTime();
    List<ByteBuf> written = new ArrayList<>();
    Future<Long> result = start(check, channel, written);
    written.forEach(channel::writeInbound);
    long elapsed = System.nanoTime() - before;
    assertTrue(result.isSuccess(), () -> String.valueOf(result.cause()));
    // Not a speed check: the time can only be part of the time since start was called.
    assertTrue(result.getNow() >= 0 && result.getNow() <= elapsed, () -> result.getNow() + " of " + elapsed);
    assertEquals(10, check.messages);
    assertFalse(channel.finishAndReleaseAll());
  }

  @Test
  void oneWrongByteFailsTheCheck() {
    EchoCheck check = new EchoCheck(1000, MESSAGE_SIZE, 5, Framing.MESSAGES, Long.MAX_VALUE);
    EmbeddedChannel channel = new EmbeddedChannel(check);
    List<ByteBuf> written = new ArrayList<>();
    Future<Long> result = start(check, channel, written);
    ByteBuf third = written.get(2);
    third.setByte(7, third.getByte(7) ^ 1);
    written.subList(0, 3).forEach(channel::writeInbound);
    assertEquals("the echo differs from what was sent, within bytes 200 to 300", failure(result));
    written.subList(3, written.size()).forEach(ByteBuf::release);
    assertFalse(channel.finishAndReleaseAll());
  }
}
