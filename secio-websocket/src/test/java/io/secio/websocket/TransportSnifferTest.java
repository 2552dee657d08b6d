package io.secio.websocket;

import static io.secio.websocket.Embedded.ascii;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.secio.websocket.WebSocketException.Reason;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The one-port listener's choice in an {@link EmbeddedChannel}, the first bytes arriving one at a
 * time: a length prefix leaves the bytes and the queued writes to the stack as they were; an HTTP
 * {@code GET } becomes a WebSocket handshake; anything else, or too few bytes in time, is one typed
 * failure and a closed connection.
 */
class TransportSnifferTest {
  private static EmbeddedChannel listener(Embedded.Recorder recorder) {
    EmbeddedChannel ch = new EmbeddedChannel();
    ch.freezeTime();
    ch.pipeline().addLast(WebSocket.serverOrTcp("/"), recorder);
    return ch;
  }

  /** Feeds {@code bytes} one at a time while the channel is open. */
  private static void oneByteAtATime(EmbeddedChannel ch, byte[] bytes) {
    for (int i = 0; i < bytes.length && ch.isOpen(); i++) {
      ch.writeInbound(Unpooled.wrappedBuffer(bytes, i, 1));
    }
  }

  @Test
  void aLengthPrefixIsPlainTcpWithItsBytesAndTheQueuedWritesAsTheyWere() {
    Embedded.Recorder recorder = new Embedded.Recorder();
    EmbeddedChannel ch = listener(recorder);
    ch.write(ascii("our propose"));
    ch.writeAndFlush(ascii(", then more"));
    assertEquals(0, Embedded.outbound(ch).length, "nothing leaves before the choice");
    // The start of a tentacle secio Propose: u32 BE length, then its molecule header.
    byte[] propose = {0, 0, 0, (byte) 0x8d, (byte) 0x8d, 0, 0, 0, 24, 0, 0, 0};
    oneByteAtATime(ch, propose);
    assertArrayEquals(propose, recorder.read.toByteArray());
    assertEquals("our propose, then more", Embedded.outboundText(ch));
    assertFalse(WebSocket.isWebSocket(ch));
    assertFalse(ch.pipeline().names().contains(WebSocket.HANDLER_NAME), ch.pipeline().names().toString());
    assertEquals(List.of(), recorder.failures);
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void anHttpGetIsAWebSocketHandshake() {
    Embedded.Recorder recorder = new Embedded.Recorder();
    EmbeddedChannel ch = listener(recorder);
    ch.writeAndFlush(ascii("queued"));
    oneByteAtATime(ch, Embedded.upgrade("/").getBytes(StandardCharsets.US_ASCII));
    byte[] out = Embedded.outbound(ch);
    assertTrue(new String(out, StandardCharsets.ISO_8859_1).startsWith("HTTP/1.1 101 "));
    List<WebSocketFrame> frames = Embedded.readFrames(false, Embedded.afterHead(out));
    assertEquals(1, frames.size());
    assertEquals("queued", frames.get(0).content().toString(StandardCharsets.US_ASCII));
    frames.forEach(WebSocketFrame::release);
    assertTrue(WebSocket.isWebSocket(ch));
    assertTrue(WebSocket.handshakeFuture(ch).isSuccess());
    ch.writeInbound(Embedded.frames(true, new BinaryWebSocketFrame(ascii("bytes"))));
    assertEquals("bytes", recorder.text());
    assertEquals(1000, Embedded.closeStatusOnClose(ch, false));
    assertFalse(ch.finishAndReleaseAll());
  }

  @ParameterizedTest
  @ValueSource(strings = {"16030100", "00000000", "50555420", "47455421", "ffffffff", "01000000"})
  void anythingElseIsRefused(String first) {
    Embedded.Recorder recorder = new Embedded.Recorder();
    EmbeddedChannel ch = listener(recorder);
    ch.writeAndFlush(ascii("queued"));
    oneByteAtATime(ch, java.util.HexFormat.of().parseHex(first + "0102"));
    assertEquals(Reason.NOT_RECOGNISED, recorder.failure().reason(), first);
    assertFalse(ch.isOpen());
    assertEquals("", Embedded.outboundText(ch));
    assertEquals("", recorder.text());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void fewerThanFourBytesInTimeIsATimeout() {
    Embedded.Recorder recorder = new Embedded.Recorder();
    EmbeddedChannel ch = listener(recorder);
    oneByteAtATime(ch, "GET".getBytes(StandardCharsets.US_ASCII));
    ch.advanceTimeBy(WebSocketConfig.DEFAULT_HANDSHAKE_TIMEOUT.toMillis() - 1, TimeUnit.MILLISECONDS);
    ch.runScheduledPendingTasks();
    assertTrue(ch.isOpen());
    ch.advanceTimeBy(1, TimeUnit.MILLISECONDS);
    ch.runScheduledPendingTasks();
    assertEquals(Reason.HANDSHAKE_TIMEOUT, recorder.failure().reason());
    assertFalse(ch.isOpen());
    assertFalse(ch.finishAndReleaseAll());
  }
}
