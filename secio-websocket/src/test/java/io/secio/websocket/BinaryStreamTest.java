package io.secio.websocket;

import static io.secio.websocket.Embedded.ascii;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.secio.websocket.WebSocketException.Reason;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The byte stream after the handshake, on the listener's side in an {@link EmbeddedChannel}, the
 * peer's frames built by Netty's own encoder: binary and continuation payloads become bytes; pings
 * are answered; a close frame is answered and closes; a text frame, a frame over the limit or an
 * unmasked frame from a client is one typed failure after the close frame that says why, and
 * nothing after it is delivered; a long write leaves as several frames.
 */
class BinaryStreamTest {
  private static final int MAX_PAYLOAD = 100;
  private static final WebSocketConfig CONFIG = WebSocketConfig.builder().maxFramePayloadLength(MAX_PAYLOAD).build();

  /** A listener past its handshake, its 101 read. */
  private static EmbeddedChannel open(Embedded.Recorder recorder) {
    EmbeddedChannel ch = new EmbeddedChannel(WebSocket.server(CONFIG, "/"), recorder);
    ch.writeInbound(ascii(Embedded.upgrade("/")));
    assertTrue(Embedded.outboundText(ch).startsWith("HTTP/1.1 101 "));
    return ch;
  }

  private static List<WebSocketFrame> written(EmbeddedChannel ch) {
    return Embedded.readFrames(false, Embedded.outbound(ch));
  }

  private static String payloads(List<WebSocketFrame> frames) {
    StringBuilder b = new StringBuilder();
    for (WebSocketFrame f : frames) {
      b.append(f.content().toString(StandardCharsets.ISO_8859_1));
      f.release();
    }
    return b.toString();
  }

  @Test
  void binaryAndContinuationPayloadsAreOneByteStream() {
    Embedded.Recorder recorder = new Embedded.Recorder();
    EmbeddedChannel ch = open(recorder);
    ch.writeInbound(Embedded.frames(true,
        new BinaryWebSocketFrame(ascii("one ")),
        new BinaryWebSocketFrame(Unpooled.EMPTY_BUFFER),
        new BinaryWebSocketFrame(false, 0, ascii("two ")),
        new ContinuationWebSocketFrame(false, 0, ascii("three ")),
        new PongWebSocketFrame(ascii("unasked")),
        new ContinuationWebSocketFrame(true, 0, ascii("four"))));
    assertEquals("one two three four", recorder.text());
    assertEquals(List.of(), recorder.failures);
    assertEquals(List.of(), written(ch), "a pong is not answered");
    assertEquals(1000, Embedded.closeStatusOnClose(ch, false));
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void aPingIsAnsweredWithItsPayload() {
    Embedded.Recorder recorder = new Embedded.Recorder();
    EmbeddedChannel ch = open(recorder);
    ch.writeInbound(Embedded.frames(true, new PingWebSocketFrame(ascii("are you there"))));
    List<WebSocketFrame> answer = written(ch);
    assertEquals(1, answer.size());
    assertInstanceOf(PongWebSocketFrame.class, answer.get(0));
    assertEquals("are you there", payloads(answer));
    assertEquals(1000, Embedded.closeStatusOnClose(ch, false));
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void thePeersCloseFrameIsAnsweredWithItsStatusAndCloses() {
    Embedded.Recorder recorder = new Embedded.Recorder();
    EmbeddedChannel ch = open(recorder);
    ch.writeInbound(Embedded.frames(true, new BinaryWebSocketFrame(ascii("last words")),
        new CloseWebSocketFrame(WebSocketCloseStatus.ENDPOINT_UNAVAILABLE),
        new BinaryWebSocketFrame(ascii(" after the close"))));
    assertEquals("last words", recorder.text());
    List<WebSocketFrame> answer = written(ch);
    assertEquals(1, answer.size());
    assertEquals(WebSocketCloseStatus.ENDPOINT_UNAVAILABLE.code(), ((CloseWebSocketFrame) answer.get(0)).statusCode());
    answer.forEach(WebSocketFrame::release);
    assertFalse(ch.isOpen());
    assertEquals(List.of(), recorder.failures, "a close frame is an end, not a failure");
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void aTextFrameFailsAfterItsCloseFrameAndNothingAfterItIsDelivered() {
    Embedded.Recorder recorder = new Embedded.Recorder();
    EmbeddedChannel ch = open(recorder);
    // The frame with a reserved bit set, in the same read, breaks the decoder after the text frame
    // failed: still one failure told (the fuzzer found it told twice).
    ch.writeInbound(Embedded.frames(true, new BinaryWebSocketFrame(ascii("before")),
        new TextWebSocketFrame("a text frame"), new BinaryWebSocketFrame(ascii("after")),
        new BinaryWebSocketFrame(true, 4, ascii("reserved bit"))));
    assertFailed(ch, recorder, Reason.TEXT_FRAME, WebSocketCloseStatus.INVALID_MESSAGE_TYPE);
  }

  @Test
  void aFrameOverTheLimitFailsUnread() {
    Embedded.Recorder recorder = new Embedded.Recorder();
    EmbeddedChannel ch = open(recorder);
    ByteBuf frames = Embedded.frames(true, new BinaryWebSocketFrame(ascii("before")),
        new BinaryWebSocketFrame(Unpooled.wrappedBuffer(new byte[MAX_PAYLOAD + 1])));
    // Only the long frame's header: it is refused before its payload arrives.
    ch.writeInbound(frames.readRetainedSlice(frames.readableBytes() - MAX_PAYLOAD - 1));
    frames.release();
    assertFailed(ch, recorder, Reason.FRAME_TOO_LONG, WebSocketCloseStatus.MESSAGE_TOO_BIG);
  }

  @Test
  void anUnmaskedFrameFromAClientFails() {
    Embedded.Recorder recorder = new Embedded.Recorder();
    EmbeddedChannel ch = open(recorder);
    ch.writeInbound(Embedded.frames(true, new BinaryWebSocketFrame(ascii("before"))));
    ch.writeInbound(Embedded.frames(false, new BinaryWebSocketFrame(ascii("unmasked"))));
    assertFailed(ch, recorder, Reason.MALFORMED_FRAME, WebSocketCloseStatus.PROTOCOL_ERROR);
  }

  private static void assertFailed(EmbeddedChannel ch, Embedded.Recorder recorder, Reason reason,
      WebSocketCloseStatus status) {
    assertEquals("before", recorder.text(), "what came before the bad frame, and nothing after");
    assertEquals(reason, recorder.failure().reason());
    List<WebSocketFrame> answer = written(ch);
    assertEquals(1, answer.size(), answer::toString);
    assertEquals(status.code(), ((CloseWebSocketFrame) answer.get(0)).statusCode());
    answer.forEach(WebSocketFrame::release);
    assertFalse(ch.isOpen());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void aLongWriteLeavesAsSeveralFramesOfTheWriteLimitInOrder() {
    Embedded.Recorder recorder = new Embedded.Recorder();
    EmbeddedChannel ch = new EmbeddedChannel(WebSocket.server("/"), recorder);
    ch.writeInbound(ascii(Embedded.upgrade("/")));
    Embedded.outbound(ch);
    byte[] big = new byte[2 * WebSocketConfig.MAX_WRITE_FRAME_PAYLOAD_IN_BYTES + 5];
    new Random(3).nextBytes(big);
    assertTrue(ch.writeAndFlush(Unpooled.wrappedBuffer(big)).isSuccess());
    List<WebSocketFrame> frames = written(ch);
    assertEquals(List.of(WebSocketConfig.MAX_WRITE_FRAME_PAYLOAD_IN_BYTES,
        WebSocketConfig.MAX_WRITE_FRAME_PAYLOAD_IN_BYTES, 5),
        frames.stream().map(f -> f.content().readableBytes()).toList());
    assertEquals(new String(big, StandardCharsets.ISO_8859_1), payloads(frames));
    assertEquals(1000, Embedded.closeStatusOnClose(ch, false));
    assertFalse(ch.finishAndReleaseAll());
  }
}
