package io.secio.websocket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The one-port listener fed any dialer's bytes ({@code docs/FUZZING.md}), cut into chunks of 1 to 64
 * bytes (the input's first byte chooses), with a write of its own waiting: at most one failure
 * reaches the handlers after it, a {@link WebSocketException}, and the connection is then closed;
 * when the first bytes are a length prefix, every byte passes as it came and the waiting write goes
 * out as it was; when they upgrade, the listener's first bytes are an HTTP response; no buffer leaks.
 * Seeds: a browser's upgrade then frames (binary, fragmented, ping, close), a secio Propose's start,
 * a TLS ClientHello, a header over the limit.
 */
class ListenerFuzzTest {
  private static final WebSocketConfig CONFIG = WebSocketConfig.builder()
      .maxFramePayloadLength(1024).maxHttpHeaderLength(512).build();

  @FuzzTest(maxDuration = "2m")
  void anyDialerBytes(byte[] input) {
    if (input.length < 2) {
      return;
    }
    int chunk = 1 + (input[0] & 0x3f);
    byte[] dialer = Arrays.copyOfRange(input, 1, input.length);
    Embedded.Recorder recorder = new Embedded.Recorder();
    EmbeddedChannel ch = new EmbeddedChannel();
    ch.pipeline().addLast(WebSocket.serverOrTcp(CONFIG, "/"), recorder);
    try {
      feed(ch, dialer, chunk, recorder);
    } finally {
      ch.finishAndReleaseAll();
    }
  }

  private static void feed(EmbeddedChannel ch, byte[] dialer, int chunk, Embedded.Recorder recorder) {
    ch.writeAndFlush(Unpooled.copiedBuffer("ours", StandardCharsets.US_ASCII));
    for (int at = 0; at < dialer.length && ch.isOpen(); at += chunk) {
      ch.writeInbound(Unpooled.copiedBuffer(dialer, at, Math.min(chunk, dialer.length - at)));
    }
    assertTrue(recorder.failures.size() <= 1, () -> "failures: " + recorder.failures);
    if (!recorder.failures.isEmpty()) {
      assertInstanceOf(WebSocketException.class, recorder.failures.get(0));
      assertFalse(ch.isOpen(), "closed after " + recorder.failures.get(0));
    }
    String written = Embedded.outboundText(ch);
    boolean lengthPrefix = dialer.length >= 4 && dialer[0] == 0 && (dialer[1] | dialer[2] | dialer[3]) != 0;
    if (lengthPrefix) {
      assertArrayEquals(dialer, recorder.read.toByteArray(), "plain TCP passes every byte");
      assertEquals("ours", written);
    } else if (WebSocket.isWebSocket(ch) && !written.isEmpty()) {
      assertTrue(written.startsWith("HTTP/1.1 "), written);
    } else {
      assertEquals(0, recorder.read.size(), "nothing passes before an upgrade");
    }
  }
}
