package io.secio.ckb.testing;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** {@code vectors/ckb/molecule-examples.json}: its examples by name, its multiaddrs, its snappy frame. */
public final class MoleculeExamples {
  private static final JsonObject ROOT = JsonParser.parseString(
      new String(CkbVectors.bytes("molecule-examples.json"), StandardCharsets.UTF_8)).getAsJsonObject();

  private MoleculeExamples() {}

  /** The names of every example, in the file's order. */
  public static List<String> names() {
    List<String> out = new ArrayList<>();
    for (JsonElement e : ROOT.getAsJsonArray("examples")) {
      out.add(e.getAsJsonObject().get("name").getAsString());
    }
    return out;
  }

  /** The bytes of example {@code name}. */
  public static byte[] bytes(String name) {
    for (JsonElement e : ROOT.getAsJsonArray("examples")) {
      JsonObject o = e.getAsJsonObject();
      if (o.get("name").getAsString().equals(name)) {
        return HexFormat.of().parseHex(o.get("hex").getAsString());
      }
    }
    throw new IllegalArgumentException("no example " + name);
  }

  /** The {@code multiaddr} entries: text and binary form (hex). */
  public static List<String[]> multiaddrs() {
    List<String[]> out = new ArrayList<>();
    for (JsonElement e : ROOT.getAsJsonArray("multiaddr")) {
      JsonObject o = e.getAsJsonObject();
      out.add(new String[] {o.get("text").getAsString(), o.get("hex").getAsString()});
    }
    return out;
  }

  /** A field of the snappy-compressed frame, in hex: {@code frame_hex}, {@code decompressed_payload_hex}. */
  public static byte[] compressedFrame(String field) {
    return HexFormat.of().parseHex(ROOT.getAsJsonObject("compressed_frame").get(field).getAsString());
  }
}
