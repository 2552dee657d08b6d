package io.secio.websocket;

import static io.secio.websocket.Embedded.ascii;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.secio.websocket.WebSocketException.Reason;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The dialer's handshake in an {@link EmbeddedChannel}, against a hand-written server: the request
 * a WebSocket server expects, the server's first frames in the same read as its 101, writes made
 * meanwhile as masked frames after it, and every bad response one typed failure.
 */
class ClientHandshakeTest {
  private static final URI URI_ = URI.create("ws://127.0.0.1:8114/ckb?x=1");
  private static final WebSocketConfig CONFIG = WebSocketConfig.builder().maxHttpHeaderLength(1024).build();

  private static EmbeddedChannel client(Embedded.Recorder recorder) {
    // The clock stands still from before the handshake starts, so its timer is exact.
    EmbeddedChannel ch = new EmbeddedChannel();
    ch.freezeTime();
    ch.pipeline().addLast(WebSocket.client(CONFIG, URI_), recorder);
    return ch;
  }

  /** The request's key, after checking it is the upgrade a server expects. */
  private static String keyOf(String request) {
    assertTrue(request.startsWith("GET /ckb?x=1 HTTP/1.1\r\n"), request);
    String lower = request.toLowerCase();
    for (String header : List.of("host: 127.0.0.1:8114", "upgrade: websocket", "connection: upgrade",
        "sec-websocket-version: 13")) {
      assertTrue(lower.contains(header + "\r\n"), header + " in " + request);
    }
    assertFalse(lower.contains("sec-websocket-protocol"), request);
    Matcher key = Pattern.compile("(?i)sec-websocket-key: (\\S+)\r\n").matcher(request);
    assertTrue(key.find(), request);
    return key.group(1);
  }

  private static String accept(String key) throws Exception {
    byte[] sha1 = MessageDigest.getInstance("SHA-1")
        .digest((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").getBytes(StandardCharsets.US_ASCII));
    return Base64.getEncoder().encodeToString(sha1);
  }

  private static String switching(String accept, String... extra) {
    return "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Accept: " + accept + "\r\n" + String.join("", extra) + "\r\n";
  }

  @Test
  void upgradesThenQueuedWritesGoOutMaskedAndTheServersFirstFramesArrive() throws Exception {
    Embedded.Recorder recorder = new Embedded.Recorder();
    EmbeddedChannel ch = client(recorder);
    ch.write(ascii("propose"));
    ch.writeAndFlush(ascii(" exchange"));
    String key = keyOf(Embedded.outboundText(ch));

    ch.writeInbound(Unpooled.wrappedBuffer(ascii(switching(accept(key))),
        Embedded.frames(false, new BinaryWebSocketFrame(ascii("server's propose")))));
    assertTrue(WebSocket.handshakeFuture(ch).isSuccess());
    assertEquals("server's propose", recorder.text());
    List<WebSocketFrame> frames = Embedded.readFrames(true, Embedded.outbound(ch));
    assertEquals(List.of("propose", " exchange"), frames.stream()
        .map(f -> f.content().toString(StandardCharsets.US_ASCII)).toList());
    frames.forEach(WebSocketFrame::release);
    assertEquals(List.of(), recorder.failures);
    assertEquals(1000, Embedded.closeStatusOnClose(ch, true));
    assertFalse(ch.finishAndReleaseAll());
  }

  static Stream<Arguments> badResponses() throws Exception {
    return Stream.of(
        Arguments.of("200", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", Reason.HANDSHAKE_REFUSED),
        Arguments.of("404", "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n", Reason.HANDSHAKE_REFUSED),
        Arguments.of("a wrong accept", switching(accept("another key")), Reason.HANDSHAKE_REFUSED),
        Arguments.of("no accept", switching("x").replace("Sec-WebSocket-Accept: x\r\n", ""),
            Reason.HANDSHAKE_REFUSED),
        Arguments.of("a subprotocol", "SUBPROTOCOL", Reason.HANDSHAKE_REFUSED),
        Arguments.of("an extension", "EXTENSION", Reason.HANDSHAKE_REFUSED),
        Arguments.of("not HTTP", "\u0016\u0003\u0001\u0002\u0000\r\n\r\n", Reason.HANDSHAKE_REFUSED),
        Arguments.of("a long header", "HTTP/1.1 101 Switching Protocols\r\nX-Padding: " + "a".repeat(1100)
            + "\r\n\r\n", Reason.HANDSHAKE_TOO_LONG));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badResponses")
  void aBadResponseFailsOnceAndCloses(String what, String response, Reason reason) throws Exception {
    Embedded.Recorder recorder = new Embedded.Recorder();
    EmbeddedChannel ch = client(recorder);
    ch.writeAndFlush(ascii("queued"));
    String key = keyOf(Embedded.outboundText(ch));
    String good = accept(key);
    response = response.replace("SUBPROTOCOL", switching(good, "Sec-WebSocket-Protocol: chat\r\n"))
        .replace("EXTENSION", switching(good, "Sec-WebSocket-Extensions: permessage-deflate\r\n"));
    ch.writeInbound(ascii(response));
    assertEquals(reason, recorder.failure().reason(), what);
    assertEquals(reason, ((WebSocketException) WebSocket.handshakeFuture(ch).cause()).reason());
    assertFalse(ch.isOpen());
    assertEquals("", Embedded.outboundText(ch), "the queued write never goes out");
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void noResponseRunsOutOfTime() {
    Embedded.Recorder recorder = new Embedded.Recorder();
    EmbeddedChannel ch = client(recorder);
    Embedded.outbound(ch);
    ch.advanceTimeBy(CONFIG.handshakeTimeout().toMillis() - 1, TimeUnit.MILLISECONDS);
    ch.runScheduledPendingTasks();
    assertTrue(ch.isOpen(), "not before the timeout");
    ch.advanceTimeBy(1, TimeUnit.MILLISECONDS);
    ch.runScheduledPendingTasks();
    assertEquals(Reason.HANDSHAKE_TIMEOUT, recorder.failure().reason());
    assertFalse(ch.isOpen());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void onlyPlainWebSocketUrisAreDialled() {
    assertThrows(IllegalArgumentException.class, () -> WebSocket.client(URI.create("wss://127.0.0.1:443/")));
    assertThrows(IllegalArgumentException.class, () -> WebSocket.client(URI.create("http://127.0.0.1/")));
    assertThrows(IllegalArgumentException.class, () -> WebSocket.server("no-slash"));
  }
}
