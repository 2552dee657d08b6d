package io.secio.websocket;

import static io.secio.websocket.Embedded.ascii;
import static io.secio.websocket.Embedded.upgrade;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.secio.websocket.WebSocketException.Reason;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The listener's handshake in an {@link EmbeddedChannel}: a browser's request is answered with
 * RFC 6455's accept value, writes made meanwhile follow the 101 as frames, bytes after the request
 * reach the frames; every bad upgrade is answered with its status and is one typed failure; a
 * request that trickles in runs out of time (time is driven, not waited for).
 */
class ServerHandshakeTest {
  private static final WebSocketConfig CONFIG = WebSocketConfig.builder().maxHttpHeaderLength(1024).build();

  private static EmbeddedChannel server(Embedded.Recorder recorder) {
    // The clock stands still from before the handshake starts, so its timer is exact.
    EmbeddedChannel ch = new EmbeddedChannel();
    ch.freezeTime();
    ch.pipeline().addLast(WebSocket.server(CONFIG, "/"), recorder);
    return ch;
  }

  @Test
  void answersTheUpgradeThenQueuedWritesGoOutAsFramesInOrder() {
    Embedded.Recorder recorder = new Embedded.Recorder();
    EmbeddedChannel ch = server(recorder);
    ch.write(ascii("first"));
    ch.writeAndFlush(ascii("second"));
    assertEquals(0, Embedded.outbound(ch).length, "nothing goes out before the handshake");

    ch.writeInbound(ascii(upgrade("/?client=browser")));
    byte[] out = Embedded.outbound(ch);
    String head = new String(out, StandardCharsets.ISO_8859_1);
    assertTrue(head.startsWith("HTTP/1.1 101 Switching Protocols\r\n"), head);
    assertTrue(head.toLowerCase().contains("sec-websocket-accept: " + Embedded.ACCEPT.toLowerCase()), head);
    assertFalse(head.toLowerCase().contains("sec-websocket-protocol"), head);
    List<WebSocketFrame> frames = Embedded.readFrames(false, Embedded.afterHead(out));
    assertEquals(List.of("first", "second"), frames.stream()
        .map(f -> f.content().toString(StandardCharsets.US_ASCII)).toList());
    frames.forEach(f -> assertInstanceOf(BinaryWebSocketFrame.class, f));
    frames.forEach(WebSocketFrame::release);
    assertTrue(WebSocket.handshakeFuture(ch).isSuccess());
    assertTrue(WebSocket.isWebSocket(ch));
    assertEquals(List.of(WebSocket.ENCODER_NAME, WebSocket.DECODER_NAME, WebSocket.HANDLER_NAME),
        ch.pipeline().names().subList(0, 3));
    assertEquals(List.of(), recorder.failures);
    assertEquals(1000, Embedded.closeStatusOnClose(ch, false), "closing sends a close frame first");
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void bytesInTheRequestsReadReachTheFrameDecoder() {
    Embedded.Recorder recorder = new Embedded.Recorder();
    EmbeddedChannel ch = server(recorder);
    ByteBuf frames = Embedded.frames(true, new BinaryWebSocketFrame(ascii("propose")),
        new BinaryWebSocketFrame(ascii(" and more")));
    ch.writeInbound(Unpooled.wrappedBuffer(ascii(upgrade("/")), frames));
    assertEquals("propose and more", recorder.text());
    assertTrue(WebSocket.handshakeFuture(ch).isSuccess());
    assertTrue(Embedded.outboundText(ch).startsWith("HTTP/1.1 101 "));
    assertEquals(1000, Embedded.closeStatusOnClose(ch, false));
    assertFalse(ch.finishAndReleaseAll());
  }

  static Stream<Arguments> badUpgrades() {
    String good = upgrade("/");
    return Stream.of(
        Arguments.of("another path", upgrade("/other"), 404, Reason.HANDSHAKE_REFUSED),
        Arguments.of("version 8", good.replace("Version: 13", "Version: 8"), 426, Reason.HANDSHAKE_REFUSED),
        Arguments.of("no version", good.replace("Sec-WebSocket-Version: 13\r\n", ""), 426, Reason.HANDSHAKE_REFUSED),
        Arguments.of("no key", good.replace("Sec-WebSocket-Key: " + Embedded.KEY + "\r\n", ""), 400,
            Reason.HANDSHAKE_REFUSED),
        Arguments.of("no Upgrade header", good.replace("Upgrade: websocket\r\n", ""), 400, Reason.HANDSHAKE_REFUSED),
        Arguments.of("Connection: keep-alive", good.replace("Connection: Upgrade", "Connection: keep-alive"), 400,
            Reason.HANDSHAKE_REFUSED),
        Arguments.of("POST", good.replace("GET", "POST"), 400, Reason.HANDSHAKE_REFUSED),
        Arguments.of("HTTP/1.0", good.replace("HTTP/1.1", "HTTP/1.0"), 400, Reason.HANDSHAKE_REFUSED),
        Arguments.of("a body", upgrade("/", "Content-Length: 5") + "hello", 400, Reason.HANDSHAKE_REFUSED),
        Arguments.of("a chunked body", upgrade("/", "Transfer-Encoding: chunked") + "5\r\nhello\r\n0\r\n\r\n", 400,
            Reason.HANDSHAKE_REFUSED),
        Arguments.of("a bad chunk", upgrade("/", "Transfer-Encoding: chunked") + "zz\r\n", 400,
            Reason.HANDSHAKE_REFUSED),
        Arguments.of("not HTTP", "\u0000\u0001garbage\r\n\r\n", 400, Reason.HANDSHAKE_REFUSED),
        Arguments.of("a long header block", upgrade("/", "X-Padding: " + "a".repeat(1100)), 431,
            Reason.HANDSHAKE_TOO_LONG),
        Arguments.of("a long request line", upgrade("/?" + "a".repeat(1100)), 414, Reason.HANDSHAKE_TOO_LONG));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badUpgrades")
  void aBadUpgradeIsAnsweredWithItsStatusAndFailsOnce(String what, String request, int status, Reason reason) {
    Embedded.Recorder recorder = new Embedded.Recorder();
    EmbeddedChannel ch = server(recorder);
    ch.writeAndFlush(ascii("queued"));
    ch.writeInbound(ascii(request));
    String response = Embedded.outboundText(ch);
    assertTrue(response.startsWith("HTTP/1.1 " + status + " "), what + ": " + response);
    assertTrue(response.toLowerCase().contains("connection: close"), response);
    if (status == 426) {
      assertTrue(response.toLowerCase().contains("sec-websocket-version: 13"), response);
    }
    assertFalse(response.contains("queued"), "a queued write never goes out: " + response);
    assertEquals(reason, recorder.failure().reason(), what);
    assertEquals(reason, ((WebSocketException) WebSocket.handshakeFuture(ch).cause()).reason());
    assertFalse(ch.isOpen(), "closed after the refusal");
    assertEquals("", recorder.text());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void aRequestThatTricklesInRunsOutOfTime() {
    Embedded.Recorder recorder = new Embedded.Recorder();
    EmbeddedChannel ch = server(recorder);
    byte[] request = upgrade("/").getBytes(StandardCharsets.US_ASCII);
    long stepMillis = 100;
    int sent = 0;
    while (ch.isOpen() && sent < request.length) {
      ch.writeInbound(Unpooled.wrappedBuffer(request, sent++, 1));
      ch.advanceTimeBy(stepMillis, TimeUnit.MILLISECONDS);
      ch.runScheduledPendingTasks();
    }
    Duration taken = Duration.ofMillis(stepMillis * sent);
    assertTrue(sent < request.length, "closed before the request ended");
    assertTrue(taken.compareTo(CONFIG.handshakeTimeout()) >= 0, "not before the timeout: " + taken);
    assertEquals(Reason.HANDSHAKE_TIMEOUT, recorder.failure().reason());
    assertEquals("", Embedded.outboundText(ch), "no answer to a request that never ended");
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void aPeerThatLeavesDuringTheHandshakeIsOneClosedFailure() {
    Embedded.Recorder recorder = new Embedded.Recorder();
    EmbeddedChannel ch = server(recorder);
    ch.writeInbound(ascii("GET / HTTP/1.1\r\n"));
    ch.close();
    assertEquals(Reason.CLOSED, recorder.failure().reason());
    assertArrayEquals(new byte[0], Embedded.outbound(ch));
    assertFalse(ch.finishAndReleaseAll());
  }
}
