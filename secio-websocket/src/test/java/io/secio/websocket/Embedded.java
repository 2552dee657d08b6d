package io.secio.websocket;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameEncoder;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The peer's side of a WebSocket connection in an {@link EmbeddedChannel}: the handshake's bytes
 * by hand, frames through Netty's own RFC 6455 encoder and decoder, and a recorder of what reaches
 * the handlers after ours.
 */
final class Embedded {
  /** RFC 6455's example key and its accept value (§1.3). */
  static final String KEY = "dGhlIHNhbXBsZSBub25jZQ==";
  static final String ACCEPT = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=";

  private Embedded() {}

  /** A browser's upgrade request for {@code path}, with {@code extra} header lines. */
  static String upgrade(String path, String... extra) {
    StringBuilder b = new StringBuilder("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:8114\r\n"
        + "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
        + "Sec-WebSocket-Key: " + KEY + "\r\nOrigin: http://127.0.0.1:5000\r\n");
    for (String line : extra) {
      b.append(line).append("\r\n");
    }
    return b.append("\r\n").toString();
  }

  static ByteBuf ascii(String s) {
    return Unpooled.copiedBuffer(s, StandardCharsets.ISO_8859_1);
  }

  /** Every byte written out so far, released. */
  static byte[] outbound(EmbeddedChannel ch) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Object o; (o = ch.readOutbound()) != null; ) {
      out.writeBytes(ByteBufUtil.getBytes((ByteBuf) o));
      ReferenceCountUtil.release(o);
    }
    return out.toByteArray();
  }

  static String outboundText(EmbeddedChannel ch) {
    return new String(outbound(ch), StandardCharsets.ISO_8859_1);
  }

  /** The bytes of {@code frames}, masked as a client's or not. */
  static ByteBuf frames(boolean masked, WebSocketFrame... frames) {
    EmbeddedChannel encoder = new EmbeddedChannel(new WebSocket13FrameEncoder(masked));
    for (WebSocketFrame f : frames) {
      encoder.writeOutbound(f);
    }
    ByteBuf all = Unpooled.wrappedBuffer(outbound(encoder));
    encoder.finishAndReleaseAll();
    return all;
  }

  /** The frames in {@code bytes}, which must be masked or not; the caller releases them. */
  static List<WebSocketFrame> readFrames(boolean masked, byte[] bytes) {
    EmbeddedChannel decoder = new EmbeddedChannel(new WebSocket13FrameDecoder(masked, false, 1 << 24));
    decoder.writeInbound(Unpooled.wrappedBuffer(bytes));
    List<WebSocketFrame> frames = new ArrayList<>();
    for (Object o; (o = decoder.readInbound()) != null; ) {
      frames.add((WebSocketFrame) o);
    }
    decoder.finishAndReleaseAll();
    return frames;
  }

  /**
   * Closes {@code ch} and returns the status of the one close frame it wrote first (masked as a
   * client's or not).
   */
  static int closeStatusOnClose(EmbeddedChannel ch, boolean masked) {
    ch.close();
    List<WebSocketFrame> frames = readFrames(masked, outbound(ch));
    try {
      if (frames.size() != 1 || !(frames.get(0) instanceof CloseWebSocketFrame close)) {
        throw new AssertionError("expected one close frame, got " + frames);
      }
      return close.statusCode();
    } finally {
      frames.forEach(WebSocketFrame::release);
    }
  }

  /** The bytes after the head of an HTTP response or request ({@code \r\n\r\n}). */
  static byte[] afterHead(byte[] bytes) {
    String text = new String(bytes, StandardCharsets.ISO_8859_1);
    int end = text.indexOf("\r\n\r\n");
    if (end < 0) {
      throw new AssertionError("no whole HTTP head in: " + text);
    }
    return java.util.Arrays.copyOfRange(bytes, end + 4, bytes.length);
  }

  /** What reaches the handlers after ours: the bytes, the failures, whether the channel went inactive. */
  static final class Recorder extends ChannelInboundHandlerAdapter {
    final ByteArrayOutputStream read = new ByteArrayOutputStream();
    final List<Throwable> failures = new ArrayList<>();
    final List<Object> other = new ArrayList<>();

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (msg instanceof ByteBuf b) {
        read.writeBytes(ByteBufUtil.getBytes(b));
      } else {
        other.add(msg);
      }
      ReferenceCountUtil.release(msg);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      failures.add(cause);
    }

    /** The one failure fired, which must be a {@link WebSocketException}. */
    WebSocketException failure() {
      if (failures.size() != 1 || !(failures.get(0) instanceof WebSocketException w)) {
        throw new AssertionError("expected one WebSocketException, got " + failures);
      }
      return w;
    }

    String text() {
      return read.toString(StandardCharsets.ISO_8859_1);
    }
  }
}
