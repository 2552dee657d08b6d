package io.secio.streams.yamux;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * The real tentacle 0.7.7 recordings ({@code src/test/resources/vectors/tentacle-yamux/}, each JSON
 * file gzip-compressed; {@link RecordingFilesTest} checks each against its original's SHA-256).
 */
final class Recordings {
  private static final Map<String, JsonObject> CACHE = new HashMap<>();

  private Recordings() {}

  /** The bytes of {@code name} as the shared vectors hold it (decompressed when stored as .gz). */
  static byte[] bytes(String name) {
    String path = "/vectors/tentacle-yamux/" + name;
    try (InputStream raw = Recordings.class.getResourceAsStream(path)) {
      if (raw != null) {
        return raw.readAllBytes();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try (InputStream gz = Recordings.class.getResourceAsStream(path + ".gz")) {
      if (gz == null) {
        throw new IllegalArgumentException("no recording " + name);
      }
      return new GZIPInputStream(gz).readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static synchronized JsonObject json(String name) {
    return CACHE.computeIfAbsent(name,
        n -> JsonParser.parseString(new String(bytes(n), StandardCharsets.UTF_8)).getAsJsonObject());
  }

  /** The insecure session's decoded yamux frames in one direction ("a2b": the dialer's). */
  static List<JsonObject> sessionFrames(String direction) {
    List<JsonObject> frames = new ArrayList<>();
    for (JsonElement e : json("insecure-session.json").getAsJsonArray("decoded")) {
      JsonObject o = e.getAsJsonObject();
      if (o.get("dir").getAsString().equals(direction) && o.has("header_hex")) {
        frames.add(o);
      }
    }
    return frames;
  }

  /** The probe of that name. */
  static JsonObject probe(String name) {
    JsonArray probes = json("probes.json").getAsJsonArray("probes");
    for (JsonElement e : probes) {
      if (e.getAsJsonObject().get("probe").getAsString().equals(name)) {
        return e.getAsJsonObject();
      }
    }
    throw new IllegalArgumentException("no probe " + name);
  }

  /** Every chunk one side of a probe sent, in order, as hex ("a2b": the probing client's). */
  static List<String> chunks(JsonObject probe, String direction) {
    List<String> chunks = new ArrayList<>();
    for (JsonElement e : probe.getAsJsonArray("events")) {
      JsonObject o = e.getAsJsonObject();
      if (o.get("dir").getAsString().equals(direction) && o.has("hex")) {
        chunks.add(o.get("hex").getAsString());
      }
    }
    return chunks;
  }
}
