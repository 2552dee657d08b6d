package io.secio.testing;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Reads the known answers carried in this repository under {@code src/test/resources/vectors/}
 * (byte-identical copies of the project's vectors, checked by {@code VectorFilesTest}).
 */
public final class Vectors {
  private Vectors() {}

  /** The bytes of one vector file, e.g. {@code "wycheproof/x25519_test.json"}; missing is a failure. */
  public static byte[] bytes(String relativePath) {
    String resource = "/vectors/" + relativePath;
    try (InputStream in = Vectors.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("vector file missing from the test classpath: " + resource);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static JsonObject load(String relativePath) {
    String text = new String(bytes(relativePath), StandardCharsets.UTF_8);
    return JsonParser.parseString(text).getAsJsonObject();
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
  public static void assertKeys(JsonObject expected, io.secio.frame.cipher.DirectionKeys actual) {
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
