package io.secio.streams.mplex;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * mplex frames written by hand, independently of {@link MplexFrames}, and read back from a channel;
 * public for the fuzz test's seeds and its check of what the session wrote.
 */
public final class MplexWire {
  static final HexFormat HEX = HexFormat.of();

  /** A parsed frame. */
  public record Frame(long id, int flag, byte[] data) {
    @Override
    public String toString() {
      return "Frame(" + id + ", " + flag + ", " + data.length + " bytes)";
    }
  }

  private MplexWire() {}

  /** Writes {@code v} as a minimal unsigned varint. */
  public static void varint(ByteArrayOutputStream out, long v) {
    while (v >= 0x80) {
      out.write((int) (v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out.write((int) v);
  }

  /** The bytes of one frame. */
  public static byte[] bytes(long id, int flag, byte[] data) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    varint(out, id << 3 | flag);
    varint(out, data.length);
    out.writeBytes(data);
    return out.toByteArray();
  }

  static ByteBuf frame(long id, int flag, byte[] data) {
    return Unpooled.wrappedBuffer(bytes(id, flag, data));
  }

  static ByteBuf frame(long id, int flag) {
    return frame(id, flag, new byte[0]);
  }

  /** A header and a length with no data behind it (a claim of {@code length} bytes). */
  static ByteBuf headerOnly(long id, int flag, long length) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    varint(out, id << 3 | flag);
    varint(out, length);
    return Unpooled.wrappedBuffer(out.toByteArray());
  }

  static ByteBuf newStream(long id) {
    return frame(id, 0, Long.toString(id).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
  }

  /** Every byte the channel wrote since the last call (buffers released). */
  static byte[] written(EmbeddedChannel channel) {
    return io.secio.streams.Outbound.take(channel);
  }

  static List<Frame> frames(EmbeddedChannel channel) {
    return parse(written(channel));
  }

  /** The frames {@code bytes} hold, which must be whole. */
  public static List<Frame> parse(byte[] bytes) {
    List<Frame> frames = new ArrayList<>();
    int[] at = {0};
    while (at[0] < bytes.length) {
      long header = readVarint(bytes, at);
      int length = (int) readVarint(bytes, at);
      frames.add(new Frame(header >>> 3, (int) (header & 7), Arrays.copyOfRange(bytes, at[0], at[0] + length)));
      at[0] += length;
    }
    return frames;
  }

  private static long readVarint(byte[] b, int[] at) {
    long v = 0;
    for (int shift = 0; ; shift += 7) {
      int x = b[at[0]++] & 0xFF;
      v |= (long) (x & 0x7F) << shift;
      if (x < 0x80) {
        return v;
      }
    }
  }
}
