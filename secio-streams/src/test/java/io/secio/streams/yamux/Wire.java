package io.secio.streams.yamux;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** yamux frames as a test writes and reads them: built by hand, parsed from a channel's output. */
final class Wire {
  static final HexFormat HEX = HexFormat.of();

  private Wire() {}

  /** One frame as the wire has it. */
  record Frame(int type, int flags, long streamId, long length, byte[] body) {
    String headerHex() {
      return HEX.formatHex(header(type, flags, streamId, length));
    }

    @Override
    public String toString() {
      return YamuxFrames.typeName(type) + " flags=" + flags + " stream=" + streamId + " length=" + length;
    }
  }

  static byte[] header(int type, int flags, long streamId, long length) {
    return ByteBuffer.allocate(12).put((byte) 0).put((byte) type).putShort((short) flags)
        .putInt((int) streamId).putInt((int) length).array();
  }

  static ByteBuf frame(int type, int flags, long streamId, long length) {
    return Unpooled.wrappedBuffer(header(type, flags, streamId, length));
  }

  static ByteBuf data(int flags, long streamId, byte[] body) {
    return Unpooled.wrappedBuffer(header(YamuxFrames.TYPE_DATA, flags, streamId, body.length), body);
  }

  static ByteBuf windowUpdate(int flags, long streamId, long delta) {
    return frame(YamuxFrames.TYPE_WINDOW_UPDATE, flags, streamId, delta);
  }

  /** Every byte the channel wrote so far (outbound messages taken and released). */
  static byte[] written(EmbeddedChannel channel) {
    return io.secio.streams.Outbound.take(channel);
  }

  /** The frames the channel wrote so far; the bytes must end at a frame boundary. */
  static List<Frame> frames(EmbeddedChannel channel) {
    return parse(written(channel));
  }

  static List<Frame> parse(byte[] bytes) {
    List<Frame> frames = new ArrayList<>();
    ByteBuffer b = ByteBuffer.wrap(bytes);
    while (b.hasRemaining()) {
      assertEquals(0, b.get(), "version");
      int type = b.get() & 0xFF;
      int flags = b.getShort() & 0xFFFF;
      long id = b.getInt() & 0xFFFF_FFFFL;
      long length = b.getInt() & 0xFFFF_FFFFL;
      byte[] body = new byte[type == YamuxFrames.TYPE_DATA ? (int) length : 0];
      b.get(body);
      frames.add(new Frame(type, flags, id, length, body));
    }
    return frames;
  }
}
