package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.secio.SecioSession;
import io.secio.netty.SecioHandshakeCompletionEvent;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The echo check behind {@code dial --send-bytes}, on an embedded channel. */
class TransferTest {
  private static final int TOTAL = 200_000;
  // Only the event's success matters to a Transfer; one real session serves every test.
  private static SecioSession session;

  @BeforeAll
  static void handshake() throws Exception {
    session = Sessions.established();
  }

  /** Starts a transfer and returns everything it wrote, as one buffer. */
  private static ByteBuf start(EmbeddedChannel channel) {
    channel.pipeline().fireUserEventTriggered(SecioHandshakeCompletionEvent.success(session));
    CompositeByteBuf written = Unpooled.compositeBuffer(Integer.MAX_VALUE);
    ByteBuf chunk;
    while ((chunk = channel.readOutbound()) != null) {
      written.addComponent(true, chunk);
    }
    return written;
  }

  private static String failure(CompletableFuture<Long> result) {
    ExecutionException e = assertThrows(ExecutionException.class, () -> result.get(0, TimeUnit.SECONDS));
    return e.getCause().getMessage();
  }

  @Test
  void anEchoOfEveryByteInAnyChunkingCompletes() throws Exception {
    Transfer transfer = new Transfer(TOTAL, Transfer.Reply.ECHO, 42);
    EmbeddedChannel channel = new EmbeddedChannel(transfer);
    ByteBuf sent = start(channel);
    assertEquals(TOTAL, sent.readableBytes());
    for (int size : new int[] {1, 7, 65536, 1000}) {
      channel.writeInbound(sent.readRetainedSlice(size));
      assertFalse(transfer.result().isDone());
    }
    channel.writeInbound(sent.readRetainedSlice(sent.readableBytes()));
    // Embedded channels run handlers in the caller's thread: the result is already there.
    assertTrue(transfer.result().getNow(-1L) >= 0);
    assertEquals(TOTAL, transfer.received());
    sent.release();
    assertFalse(channel.finishAndReleaseAll());
  }

  @Test
  void oneWrongByteFailsWithItsPosition() throws Exception {
    Transfer transfer = new Transfer(TOTAL, Transfer.Reply.ECHO, 7);
    EmbeddedChannel channel = new EmbeddedChannel(transfer);
    ByteBuf sent = start(channel);
    sent.setByte(123_456, sent.getByte(123_456) ^ 0x10);
    channel.writeInbound(sent);
    assertEquals("echo differs at byte 123456", failure(transfer.result()));
    assertFalse(channel.isOpen(), "a failed check closes the connection");
    assertFalse(channel.finishAndReleaseAll());
  }

  @Test
  void aCloseBeforeTheWholeEchoFails() throws Exception {
    Transfer transfer = new Transfer(TOTAL, Transfer.Reply.ECHO, 9);
    EmbeddedChannel channel = new EmbeddedChannel(transfer);
    ByteBuf sent = start(channel);
    channel.writeInbound(sent.readRetainedSlice(1000));
    sent.release();
    channel.close();
    assertEquals("connection closed after 1000 of 200000 echoed bytes", failure(transfer.result()));
    assertFalse(channel.finishAndReleaseAll());
  }

  @Test
  void moreBytesThanWereSentFail() throws Exception {
    Transfer transfer = new Transfer(10, Transfer.Reply.ECHO, 1);
    EmbeddedChannel channel = new EmbeddedChannel(transfer);
    ByteBuf sent = start(channel);
    channel.writeInbound(Unpooled.wrappedBuffer(sent, Unpooled.wrappedBuffer(new byte[1])));
    assertEquals("the peer sent back 11 bytes when 10 had been sent to it", failure(transfer.result()));
    assertFalse(channel.finishAndReleaseAll());
  }

  @Test
  void anAcknowledgementBeforeTheLastByteWentOutOrOfAnotherShapeFails() throws Exception {
    Transfer early = new Transfer(TOTAL, Transfer.Reply.ACK, 3);
    EmbeddedChannel channel = new EmbeddedChannel(early);
    channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {AckingSink.ACK}));
    assertEquals("not the acknowledgement: 1 bytes after 0 of 200000 bytes sent", failure(early.result()));
    assertFalse(channel.finishAndReleaseAll());

    Transfer twoBytes = new Transfer(TOTAL, Transfer.Reply.ACK, 3);
    channel = new EmbeddedChannel(twoBytes);
    start(channel).release();
    channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {AckingSink.ACK, AckingSink.ACK}));
    assertEquals("not the acknowledgement: 2 bytes after 200000 of 200000 bytes sent", failure(twoBytes.result()));
    assertFalse(channel.finishAndReleaseAll());
  }

  @Test
  void aFailedHandshakeFailsTheTransfer() {
    Transfer transfer = new Transfer(TOTAL, Transfer.Reply.ECHO, 1);
    EmbeddedChannel channel = new EmbeddedChannel(transfer);
    channel.pipeline().fireUserEventTriggered(
        SecioHandshakeCompletionEvent.failure(new IllegalStateException("no")));
    assertEquals("no", failure(transfer.result()));
    assertFalse(channel.finishAndReleaseAll());
  }

  @Test
  void aOneWayTransferEndsWithTheSinksAck() throws Exception {
    Transfer transfer = new Transfer(TOTAL, Transfer.Reply.ACK, 3);
    EmbeddedChannel sender = new EmbeddedChannel(transfer);
    EmbeddedChannel sink = new EmbeddedChannel(new AckingSink(TOTAL));
    ByteBuf sent = start(sender);
    sink.writeInbound(sent.readRetainedSlice(TOTAL - 1));
    assertNull(sink.readOutbound(), "no ack before every byte arrived");
    sink.writeInbound(sent);
    sender.writeInbound((ByteBuf) sink.readOutbound());
    assertTrue(transfer.result().isDone() && !transfer.result().isCompletedExceptionally());
    assertFalse(sender.finishAndReleaseAll());
    assertFalse(sink.finishAndReleaseAll());
  }
}
