package io.secio.testing;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** Reads the known answers in {@code ../shared/vectors/} (never copied, never weakened). */
public final class Vectors {
  private Vectors() {}

  /** The {@code shared/vectors} folder: from the {@code secio.shared.dir} property, else found upwards. */
  public static Path dir() {
    String configured = System.getProperty("secio.shared.dir");
    if (configured != null && Files.isDirectory(Paths.get(configured, "vectors"))) {
      return Paths.get(configured, "vectors").toAbsolutePath().normalize();
    }
    for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
      Path candidate = p.resolve("shared").resolve("vectors");
      if (Files.isDirectory(candidate)) {
        return candidate;
      }
      Path sibling = p.resolveSibling("shared").resolve("vectors");
      if (Files.isDirectory(sibling)) {
        return sibling;
      }
    }
    throw new IllegalStateException("shared/vectors not found; set -Dsecio.shared.dir");
  }

  public static JsonObject load(String relativePath) {
    try {
      String text = Files.readString(dir().resolve(relativePath), StandardCharsets.UTF_8);
      return JsonParser.parseString(text).getAsJsonObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static JsonObject kats() {
    return load("secio-kats.json");
  }

  public static JsonObject transcript() {
    return load("libp2p-secio-transcript.json");
  }

  public static JsonObject wycheproof(String name) {
    return load("wycheproof/" + name);
  }

  /** Hex field of an object as bytes. */
  public static byte[] hex(JsonObject o, String field) {
    return Hex.decode(o.get(field).getAsString());
  }

  /** Asserts one direction's stretched keys against {@code {iv, key|cipherKey, mac|macKey}}. */
  public static void assertKeys(JsonObject expected, io.secio.frame.DirectionKeys actual) {
    org.junit.jupiter.api.Assertions.assertArrayEquals(hex(expected, "iv"), actual.iv(), "iv");
    String key = expected.has("cipherKey") ? "cipherKey" : "key";
    String mac = expected.has("macKey") ? "macKey" : "mac";
    org.junit.jupiter.api.Assertions.assertArrayEquals(hex(expected, key), actual.cipherKey(), key);
    org.junit.jupiter.api.Assertions.assertArrayEquals(hex(expected, mac), actual.macKey(), mac);
  }

  public static byte[] hex(JsonElement e) {
    return Hex.decode(e.getAsString());
  }
}
