package io.secio.netty.multistream;

import static io.secio.netty.multistream.MultistreamMessageTest.HEADER_HEX;
import static io.secio.netty.multistream.MultistreamMessageTest.NA_HEX;
import static io.secio.netty.multistream.MultistreamMessageTest.SECIO_HEX;
import static io.secio.netty.multistream.MultistreamMessageTest.encoded;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPipelineException;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.Future;
import io.secio.netty.NegotiatedProtocol;
import io.secio.netty.NegotiationCompletionEvent;
import io.secio.netty.multistream.MultistreamException.Reason;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The negotiating handler on {@link EmbeddedChannel}s: the bytes each role sends, the hand-over to the
 * next handler with the bytes read past the negotiation (the input split at every byte), and every
 * way a peer can make it fail.
 */
class MultistreamHandlerTest {
  private static final String LEFTOVER_HEX = "00000004cafe0102";

  /** Keeps the bytes, events and exceptions that reach it; releases every buffer. */
  static final class Sink extends ChannelInboundHandlerAdapter {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final List<Object> events = new ArrayList<>();
    final List<Throwable> exceptions = new ArrayList<>();

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      exceptions.add(cause);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf buf = (ByteBuf) msg;
      bytes.writeBytes(ByteBufUtil.getBytes(buf));
      buf.release();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      events.add(evt);
    }

    String hex() {
      return ByteBufUtil.hexDump(bytes.toByteArray());
    }

    NegotiationCompletionEvent onlyCompletion() {
      List<Object> completions = events.stream().filter(NegotiationCompletionEvent.class::isInstance).toList();
      assertEquals(1, completions.size(), events.toString());
      return (NegotiationCompletionEvent) completions.get(0);
    }
  }

  /** Stands for the next protocol's handler: marks every write it carries. */
  static final class Marker extends ChannelOutboundHandlerAdapter {
    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
      ctx.write(Unpooled.wrappedBuffer(new byte[] {(byte) 0xee}));
      ctx.write(msg, promise);
    }
  }

  private static String outbound(EmbeddedChannel ch) {
    StringBuilder hex = new StringBuilder();
    for (ByteBuf buf; (buf = ch.readOutbound()) != null; ) {
      hex.append(ByteBufUtil.hexDump(buf));
      buf.release();
    }
    return hex.toString();
  }

  private static void writeHex(EmbeddedChannel ch, String hex) {
    ch.writeInbound(Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(hex)));
  }

  /** Feeds {@code hex} in two reads split after {@code split} bytes (an empty read is skipped). */
  private static void writeSplit(EmbeddedChannel ch, String hex, int split) {
    if (split > 0) {
      writeHex(ch, hex.substring(0, 2 * split));
    }
    if (2 * split < hex.length()) {
      writeHex(ch, hex.substring(2 * split));
    }
  }

  private static Reason failure(EmbeddedChannel ch, Sink sink) {
    Future<NegotiatedProtocol> f = Multistream.negotiationFuture(ch);
    assertTrue(f.isDone() && !f.isSuccess(), "not failed");
    assertFalse(ch.isOpen(), "still open");
    Reason reason = assertInstanceOf(MultistreamException.class, f.cause()).reason();
    assertEquals(reason, ((MultistreamException) sink.onlyCompletion().cause()).reason());
    // One failure contract for every stage: the same cause reaches exceptionCaught, once.
    assertEquals(List.of(f.cause()), sink.exceptions);
    return reason;
  }

  @Test
  void initiatorSendsHeaderAndFirstChoiceInOneWrite() {
    EmbeddedChannel ch = new EmbeddedChannel(Multistream.initiator(Multistream.SECIO, null), new Sink());
    ByteBuf first = ch.readOutbound();
    assertEquals(HEADER_HEX + SECIO_HEX, ByteBufUtil.hexDump(first));
    first.release();
    assertNull(ch.readOutbound());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void initiatorHandsOverToTheNextHandlerWithTheBytesReadPastTheEchoAtEverySplit() {
    String answer = HEADER_HEX + SECIO_HEX + LEFTOVER_HEX;
    for (int split = 0; split <= answer.length() / 2; split++) {
      Sink sink = new Sink();
      EmbeddedChannel ch = new EmbeddedChannel(Multistream.initiator(Multistream.SECIO, new Marker()), sink);
      outbound(ch);
      writeSplit(ch, answer, split);
      assertEquals(Multistream.SECIO, Multistream.negotiationFuture(ch).getNow().name(), "split " + split);
      assertEquals(Multistream.SECIO, sink.onlyCompletion().protocol().name());
      assertEquals(LEFTOVER_HEX, sink.hex(), "split " + split);
      assertNull(ch.pipeline().get(MultistreamHandler.class));
      assertTrue(ch.pipeline().get(Marker.class) != null, "next handler not added");
      ch.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1}));
      assertEquals("ee01", outbound(ch), "writes after agreement pass through the next handler");
      assertFalse(ch.finishAndReleaseAll());
    }
  }

  @Test
  void initiatorFallsBackThroughItsListOnNa() {
    Sink sink = new Sink();
    EmbeddedChannel ch = new EmbeddedChannel(
        Multistream.initiator().protocol("/a", () -> null).protocol("/b", Marker::new).build(), sink);
    assertEquals(HEADER_HEX + encoded("/a"), outbound(ch));
    writeHex(ch, HEADER_HEX + NA_HEX);
    assertEquals(encoded("/b"), outbound(ch));
    writeHex(ch, encoded("/b"));
    assertEquals("/b", sink.onlyCompletion().protocol().name());
    assertTrue(ch.pipeline().get(Marker.class) != null);
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void writesDuringTheNegotiationWaitAndThenGoThroughTheNextHandlerInOrder() {
    EmbeddedChannel ch = new EmbeddedChannel(Multistream.initiator(Multistream.SECIO, new Marker()), new Sink());
    outbound(ch);
    ChannelFuture first = ch.write(Unpooled.wrappedBuffer(new byte[] {1}));
    ChannelFuture second = ch.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {2}));
    assertEquals("", outbound(ch), "application bytes sent before the protocol was agreed");
    writeHex(ch, HEADER_HEX + SECIO_HEX);
    assertEquals("ee01ee02", outbound(ch));
    assertTrue(first.isSuccess() && second.isSuccess());
    assertFalse(ch.finishAndReleaseAll());
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
    // the peer's whole answer (after our header + /secio/1.0.0), and the reason
    "'" + HEADER_HEX + NA_HEX + "', NO_COMMON_PROTOCOL",
    "'" + HEADER_HEX + "03" + "2f61" + "0a', UNEXPECTED_MESSAGE",           // echoes something else
    "'" + HEADER_HEX + "02" + "6c73" + "', MALFORMED_MESSAGE",             // no trailing newline
    "'13" + "2f6d756c746973747265616d2f322e302e30" + "0a', WRONG_HEADER", // /multistream/2.0.0
    "'" + SECIO_HEX + "', WRONG_HEADER",                                   // no header at all
    "'8108', MESSAGE_TOO_LONG",
    "'00', MALFORMED_MESSAGE",
    "'03c3280a', MALFORMED_MESSAGE",
  })
  void initiatorFailsOnEveryBadAnswerWithItsReasonAndCloses(String answer, Reason reason) {
    Sink sink = new Sink();
    EmbeddedChannel ch = new EmbeddedChannel(Multistream.initiator(Multistream.SECIO, new Marker()), sink);
    outbound(ch);
    ChannelFuture queued = ch.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1}));
    writeHex(ch, answer + LEFTOVER_HEX);
    assertEquals(reason, failure(ch, sink));
    assertEquals("", sink.hex(), "bytes after a failed negotiation reached the application");
    assertInstanceOf(MultistreamException.class, queued.cause());
    assertNull(ch.pipeline().get(Marker.class));
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void responderSendsItsHeaderEchoesTheProtocolAndHandsOverAtEverySplit() {
    String proposal = HEADER_HEX + SECIO_HEX + LEFTOVER_HEX;
    for (int split = 0; split <= proposal.length() / 2; split++) {
      Sink sink = new Sink();
      EmbeddedChannel ch = new EmbeddedChannel(Multistream.responder(Multistream.SECIO, new Marker()), sink);
      assertEquals(HEADER_HEX, outbound(ch));
      writeSplit(ch, proposal, split);
      assertEquals(SECIO_HEX, outbound(ch), "split " + split);
      assertEquals(Multistream.SECIO, sink.onlyCompletion().protocol().name());
      assertEquals(LEFTOVER_HEX, sink.hex(), "split " + split);
      assertFalse(ch.finishAndReleaseAll());
    }
  }

  @Test
  void responderRefusesWhatItDoesNotSpeakAndListsWhatItDoes() {
    Sink sink = new Sink();
    EmbeddedChannel ch = new EmbeddedChannel(
        Multistream.responder().protocol("/a", () -> null).protocol(Multistream.SECIO, () -> null).build(), sink);
    outbound(ch);
    writeHex(ch, HEADER_HEX + encoded("/noise"));
    assertEquals(NA_HEX, outbound(ch));
    writeHex(ch, encoded("ls"));
    assertEquals("13" + "03" + "2f61" + "0a" + SECIO_HEX + "0a", outbound(ch));
    writeHex(ch, SECIO_HEX);
    assertEquals(SECIO_HEX, outbound(ch));
    assertEquals(Multistream.SECIO, sink.onlyCompletion().protocol().name());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void responderGivesUpAfterTooManyProposals() {
    Sink sink = new Sink();
    EmbeddedChannel ch = new EmbeddedChannel(
        Multistream.responder().protocol(Multistream.SECIO, () -> null).maxProposals(3).build(), sink);
    outbound(ch);
    writeHex(ch, HEADER_HEX + encoded("/1") + encoded("ls") + encoded("/3"));
    assertEquals(NA_HEX + "0f" + SECIO_HEX + "0a" + NA_HEX, outbound(ch));
    assertTrue(ch.isOpen());
    writeHex(ch, SECIO_HEX);
    assertEquals(Reason.TOO_MANY_PROPOSALS, failure(ch, sink));
    assertEquals("", outbound(ch));
    assertFalse(ch.finishAndReleaseAll());
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
    "'" + SECIO_HEX + "', WRONG_HEADER",
    "'" + HEADER_HEX + "8108', MESSAGE_TOO_LONG",
    "'" + HEADER_HEX + "808001', MESSAGE_TOO_LONG",
    "'" + HEADER_HEX + "8000', MALFORMED_MESSAGE",
    "'" + HEADER_HEX + "00', MALFORMED_MESSAGE",
    "'" + HEADER_HEX + "03616263', MALFORMED_MESSAGE",
    "'" + HEADER_HEX + "030a610a', MALFORMED_MESSAGE",
    "'" + HEADER_HEX + "04c0af610a', MALFORMED_MESSAGE",
  })
  void responderFailsOnEveryBadProposalWithItsReasonAndCloses(String proposal, Reason reason) {
    Sink sink = new Sink();
    EmbeddedChannel ch = new EmbeddedChannel(Multistream.responder(Multistream.SECIO, new Marker()), sink);
    outbound(ch);
    writeHex(ch, proposal + LEFTOVER_HEX);
    assertEquals(reason, failure(ch, sink));
    assertEquals("", outbound(ch), "answered a bad proposal");
    assertEquals("", sink.hex());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void aSilentPeerFailsWithTimeoutAfterTheConfiguredTime() {
    Sink sink = new Sink();
    EmbeddedChannel ch = new EmbeddedChannel();
    ch.freezeTime();
    ch.pipeline().addLast(
        Multistream.initiator().protocol(Multistream.SECIO, () -> null).timeout(Duration.ofSeconds(3)).build(), sink);
    assertEquals(HEADER_HEX + SECIO_HEX, outbound(ch));
    ch.advanceTimeBy(2999, TimeUnit.MILLISECONDS);
    ch.runScheduledPendingTasks();
    assertTrue(ch.isOpen());
    ch.advanceTimeBy(1, TimeUnit.MILLISECONDS);
    ch.runScheduledPendingTasks();
    assertEquals(Reason.TIMEOUT, failure(ch, sink));
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void aCloseDuringTheNegotiationFailsItWithClosedAndReleasesQueuedWrites() {
    Sink sink = new Sink();
    EmbeddedChannel ch = new EmbeddedChannel(Multistream.responder(Multistream.SECIO, null), sink);
    outbound(ch);
    ByteBuf queued = Unpooled.buffer().writeByte(1);
    ChannelFuture write = ch.writeAndFlush(queued);
    writeHex(ch, HEADER_HEX.substring(0, 10));
    ch.close();
    assertEquals(Reason.CLOSED, failure(ch, sink));
    assertEquals(0, queued.refCnt());
    assertFalse(write.isSuccess());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void withoutAutoReadTheNegotiationRequestsItsOwnReads() throws Exception {
    List<String> reads = new ArrayList<>();
    ChannelOutboundHandlerAdapter readCounter = new ChannelOutboundHandlerAdapter() {
      @Override
      public void read(ChannelHandlerContext ctx) {
        reads.add("read");
        ctx.read();
      }
    };
    EmbeddedChannel ch = new EmbeddedChannel(false, false, readCounter,
        Multistream.initiator(Multistream.SECIO, null), new Sink());
    ch.config().setAutoRead(false);
    ch.register();
    outbound(ch);
    assertEquals(1, reads.size(), "no read requested for the answer");
    writeHex(ch, HEADER_HEX); // a read and its read-complete
    assertEquals(2, reads.size(), "no read requested for the rest of the answer");
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void aNonSharableHandlerGivenOnceAndUsedOnASecondChannelFailsThatNegotiationCleanly() {
    ChannelHandler initiator = Multistream.initiator(Multistream.SECIO, new Marker());
    EmbeddedChannel first = new EmbeddedChannel(initiator, new Sink());
    writeHex(first, HEADER_HEX + SECIO_HEX);
    assertTrue(Multistream.negotiationFuture(first).isSuccess());
    Sink sink = new Sink();
    EmbeddedChannel second = new EmbeddedChannel(initiator, sink);
    writeHex(second, HEADER_HEX + SECIO_HEX + LEFTOVER_HEX);
    Future<NegotiatedProtocol> failed = Multistream.negotiationFuture(second);
    assertInstanceOf(ChannelPipelineException.class, failed.cause());
    assertInstanceOf(ChannelPipelineException.class, sink.onlyCompletion().cause());
    assertFalse(second.isOpen());
    assertEquals("", sink.hex());
    first.releaseOutbound();
    second.releaseOutbound();
    assertFalse(first.finishAndReleaseAll());
    assertFalse(second.finishAndReleaseAll());
  }

  @Test
  void protocolIdsThatCannotBeNegotiatedAreRefusedByTheBuilder() {
    for (String id : List.of("", "na", "ls", MultistreamMessage.HEADER, "a\nb", "/" + "x".repeat(1023))) {
      assertThrows(IllegalArgumentException.class,
          () -> Multistream.initiator().protocol(id, () -> null), id);
    }
  }
}
