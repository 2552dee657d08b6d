package io.secio.tentacle;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * The tentacle 0.7.7 recordings as secio-streams carries them (its test-jar's {@code
 * vectors/tentacle-yamux/*.json.gz}, whose SHA-256s its {@code RecordingFilesTest} checks), read as
 * the yamux bytes each side wrote, and those bytes cut into frames.
 */
final class Recorded {
  static final HexFormat HEX = HexFormat.of();
  static final int HEADER = 12;
  private static final Map<String, JsonObject> CACHE = new HashMap<>();

  private Recorded() {}

  /** One yamux frame: type, flags, stream id, length, and the body of a Data frame. */
  record Frame(int type, int flags, long stream, long length, byte[] body) {
    boolean isPingSyn() {
      return type == 2 && (flags & 1) != 0;
    }

    String describe() {
      return "type=" + type + " flags=" + flags + " stream=" + stream + " length=" + length
          + (body.length > 0 ? " body=" + HEX.formatHex(body, 0, Math.min(body.length, 48)) : "");
    }
  }

  static synchronized JsonObject json(String name) {
    return CACHE.computeIfAbsent(name, n -> {
      try (InputStream gz = Recorded.class.getResourceAsStream("/vectors/tentacle-yamux/" + n + ".gz")) {
        if (gz == null) {
          throw new IllegalArgumentException("no recording " + n);
        }
        return JsonParser.parseString(new String(new GZIPInputStream(gz).readAllBytes(),
            StandardCharsets.UTF_8)).getAsJsonObject();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  /**
   * The plaintext yamux bytes one side wrote, in order, as the recording cut them: TCP chunks of
   * {@code insecure-session.json}, or frames of {@code secio-session.json}'s {@code plaintext_yamux}.
   */
  static List<byte[]> chunks(String recording, String direction) {
    JsonObject json = json(recording);
    JsonArray entries = json.has("plaintext_yamux") ? json.getAsJsonArray("plaintext_yamux")
        : json.getAsJsonArray("events");
    return hexOf(entries, direction);
  }

  static JsonObject probe(String name) {
    for (JsonElement e : json("probes.json").getAsJsonArray("probes")) {
      if (e.getAsJsonObject().get("probe").getAsString().equals(name)) {
        return e.getAsJsonObject();
      }
    }
    throw new IllegalArgumentException("no probe " + name);
  }

  static List<byte[]> hexOf(JsonArray entries, String direction) {
    List<byte[]> chunks = new ArrayList<>();
    for (JsonElement e : entries) {
      JsonObject o = e.getAsJsonObject();
      if (o.get("dir").getAsString().equals(direction) && o.has("hex")) {
        chunks.add(HEX.parseHex(o.get("hex").getAsString()));
      }
    }
    return chunks;
  }

  static byte[] concat(List<byte[]> chunks) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    chunks.forEach(out::writeBytes);
    return out.toByteArray();
  }

  /** The frames in {@code bytes}, which must end on a frame's end. */
  static List<Frame> frames(byte[] bytes) {
    List<Frame> frames = new ArrayList<>();
    ByteBuffer in = ByteBuffer.wrap(bytes);
    while (in.hasRemaining()) {
      if (in.remaining() < HEADER) {
        throw new AssertionError("a partial header at the end: " + in.remaining() + " bytes");
      }
      in.get();
      int type = in.get();
      int flags = in.getShort() & 0xffff;
      long stream = Integer.toUnsignedLong(in.getInt());
      long length = Integer.toUnsignedLong(in.getInt());
      byte[] body = new byte[type == 0 ? (int) length : 0];
      in.get(body);
      frames.add(new Frame(type, flags, stream, length, body));
    }
    return frames;
  }

  /** Every byte {@code channel} wrote so far, taken and released. */
  static byte[] written(EmbeddedChannel channel) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Object msg; (msg = channel.readOutbound()) != null; ) {
      ByteBuf buf = (ByteBuf) msg;
      byte[] b = new byte[buf.readableBytes()];
      buf.readBytes(b);
      buf.release();
      out.writeBytes(b);
    }
    return out.toByteArray();
  }

  /** Echo message {@code i} of {@code n} bytes: byte j = (j*131 + i*7 + 1) mod 256. */
  static byte[] echoMessage(int i, int n) {
    byte[] b = new byte[n];
    for (int j = 0; j < n; j++) {
      b[j] = (byte) ((j * 131L + i * 7L + 1) % 256);
    }
    return b;
  }

  /** Chatter message {@code k} of {@code n} bytes: byte j = (j*31 + k*17 + 3) mod 251. */
  static byte[] chatterMessage(int k, int n) {
    byte[] b = new byte[n];
    for (int j = 0; j < n; j++) {
      b[j] = (byte) ((j * 31L + k * 17L + 3) % 251);
    }
    return b;
  }
}
