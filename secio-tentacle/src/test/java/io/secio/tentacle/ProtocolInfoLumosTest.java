package io.secio.tentacle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.secio.testsupport.NodeJs;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link ProtocolInfo} against an independent molecule implementation, {@code @ckb-lumos/codec}
 * 0.23.0 ({@code src/test/js/protocol-select-crosscheck.js}): for random names and version lists
 * (empty ones, non-ASCII UTF-8 included) lumos packs the value into Java's bytes, unpacks Java's
 * bytes into the value, and Java decodes lumos's bytes into it.
 */
class ProtocolInfoLumosTest {
  private static final long SEED = 0x5e1ec7L;
  private static final int CASES = 300;
  private static final String LETTERS = "/abcz019._-éü中😀";

  @Test
  void lumosPacksAndUnpacksProtocolInfoAsJavaDoes() throws Exception {
    Random random = new Random(SEED);
    List<ProtocolInfo> infos = new ArrayList<>();
    infos.add(new ProtocolInfo("/test/echo", List.of("2", "1")));
    infos.add(new ProtocolInfo("/test/nope", List.of()));
    infos.add(new ProtocolInfo("", List.of("")));
    for (int i = 0; i < CASES; i++) {
      List<String> versions = new ArrayList<>();
      int count = random.nextInt(4) == 0 ? 0 : random.nextInt(6);
      for (int v = 0; v < count; v++) {
        versions.add(text(random, 8));
      }
      infos.add(new ProtocolInfo(text(random, 40), versions));
    }
    JsonArray cases = new JsonArray();
    for (ProtocolInfo info : infos) {
      JsonObject c = new JsonObject();
      c.add("value", json(info));
      c.addProperty("bytes", Recorded.HEX.formatHex(info.encode()));
      cases.add(c);
    }
    JsonObject request = new JsonObject();
    request.add("cases", cases);
    String output = NodeJs.run(NodeJs.jsFolder(), "protocol-select-crosscheck.js",
        "@ckb-lumos/codec", request.toString());
    JsonArray results = JsonParser.parseString(output).getAsJsonObject().getAsJsonArray("results");
    assertEquals(infos.size(), results.size());
    for (int i = 0; i < infos.size(); i++) {
      String where = "case " + i + " (seed " + SEED + ")";
      ProtocolInfo info = infos.get(i);
      JsonObject result = results.get(i).getAsJsonObject();
      byte[] packed = Recorded.HEX.parseHex(result.get("packed").getAsString());
      assertArrayEquals(info.encode(), packed, where + ": lumos packs the value into Java's bytes");
      assertEquals(json(info), result.getAsJsonObject("unpacked"), where + ": lumos unpacks Java's bytes");
      assertEquals(info, ProtocolInfo.decode(packed), where + ": Java decodes lumos's bytes");
    }
  }

  private static JsonObject json(ProtocolInfo info) {
    JsonObject o = new JsonObject();
    o.addProperty("name", info.name());
    JsonArray versions = new JsonArray();
    info.versions().forEach(versions::add);
    o.add("support_versions", versions);
    return o;
  }

  private static String text(Random random, int max) {
    int[] letters = LETTERS.codePoints().toArray();
    StringBuilder s = new StringBuilder();
    int length = random.nextInt(max + 1);
    for (int i = 0; i < length; i++) {
      s.appendCodePoint(letters[random.nextInt(letters.length)]);
    }
    return s.toString();
  }
}
