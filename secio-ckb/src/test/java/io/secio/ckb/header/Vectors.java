package io.secio.ckb.header;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.secio.ckb.testing.CkbVectors;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** The JSON vector files of {@code vectors/ckb/}, read with gson. */
final class Vectors {
  private Vectors() {}

  static JsonObject json(String name) {
    return JsonParser.parseString(new String(CkbVectors.bytes(name), StandardCharsets.UTF_8)).getAsJsonObject();
  }

  static byte[] hex(JsonObject entry, String field) {
    String text = entry.get(field).getAsString();
    return HexFormat.of().parseHex(text.startsWith("0x") ? text.substring(2) : text);
  }

  static List<JsonObject> objects(JsonArray array) {
    List<JsonObject> out = new ArrayList<>();
    for (JsonElement e : array) {
      out.add(e.getAsJsonObject());
    }
    return out;
  }

  /** The real testnet headers 0..4, each entry as the vector file gives it. */
  static List<JsonObject> testnetHeaderEntries() {
    return objects(json("testnet-headers.json").getAsJsonArray("headers"));
  }

  /** The real testnet headers 0..4. */
  static List<Header> testnetHeaders() {
    return testnetHeaderEntries().stream().map(e -> Header.fromBytes(hex(e, "header_hex"))).toList();
  }
}
