package io.secio.ckb.header;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HeaderJsonTest {
  private static final List<Header> HEADERS = Vectors.testnetHeaders();

  private static JsonObject rpc(int i) {
    return Vectors.testnetHeaderEntries().get(i).getAsJsonObject("rpc").deepCopy();
  }

  @Test
  void readsAnArrayAndOnePerLine() throws Exception {
    String array = HEADERS.stream().map(HeaderJson::write).collect(Collectors.joining(",\n  ", "[\n  ", "\n]\n"));
    assertEquals(HEADERS, HeaderJson.parseAll(array));
    String lines = HEADERS.stream().map(HeaderJson::write).collect(Collectors.joining("\n\n", "", "\n"));
    assertEquals(HEADERS, HeaderJson.parseAll(lines));
    assertEquals(List.of(), HeaderJson.parseAll("[ ]"));
    assertEquals(List.of(), HeaderJson.parseAll("\n"));
  }

  @Test
  void theHashMayBeLeftOutButNotWrong() throws Exception {
    JsonObject rpc = rpc(2);
    rpc.remove("hash");
    assertEquals(HEADERS.get(2), HeaderJson.parse(rpc.toString()));
    rpc.addProperty("hash", HEADERS.get(3).hash().toString());
    MalformedHeaderException e = assertThrows(MalformedHeaderException.class, () -> HeaderJson.parse(rpc.toString()));
    assertTrue(e.getMessage().contains("is not the header's hash"), e.getMessage());
  }

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource({
      "number, 0X2", "number, 2", "number, 0x02", "number, 0x", "number, 0xA", "number, 0x10000000000000000",
      "version, 0x100000000", "compact_target, 0x1E015555", "nonce, 0x100000000000000000000000000000000",
      "parent_hash, 0xd5ac7cf8c34a975bf258a34f1c2507638487ab71aa4d10a9ec73704aa3abf9c",
      "parent_hash, d5ac7cf8c34a975bf258a34f1c2507638487ab71aa4d10a9ec73704aa3abf9cd",
      "parent_hash, 0xD5AC7CF8C34A975BF258A34F1C2507638487AB71AA4D10A9EC73704AA3ABF9CD",
      "uncles_hash, 0x0000000000000000000000000000000000000000000000000000000000000000",
  })
  void refusesAFieldNotInCkbsForm(String field, String value) {
    JsonObject rpc = rpc(2);
    rpc.remove("hash");
    rpc.addProperty(field, value);
    assertThrows(MalformedHeaderException.class, () -> HeaderJson.parse(rpc.toString()));
  }

  @Test
  void refusesAMissingFieldAndBadJson() {
    JsonObject rpc = rpc(2);
    rpc.remove("dao");
    assertThrows(MalformedHeaderException.class, () -> HeaderJson.parse(rpc.toString()));
    String good = rpc(2).toString();
    for (String bad : new String[] {
        good + "x", good.replace("\"version\":\"0x0\"", "\"version\":0"), good.replace("{", "{\"number\":\"0x2\","),
        good.replace("0x0\"", "0x\\u0030\""), good.substring(0, good.length() - 1), "[" + good, "[" + good + ",]",
        "null", "{}"}) {
      assertThrows(MalformedHeaderException.class, () -> HeaderJson.parseAll(bad), bad);
    }
    assertThrows(MalformedHeaderException.class, () -> HeaderJson.parse("[" + good + "]"));
  }

  @Test
  void aBadLineIsNamed() {
    String text = HeaderJson.write(HEADERS.get(0)) + "\n" + "{\"version\":\"0x0\"}\n";
    MalformedHeaderException e = assertThrows(MalformedHeaderException.class, () -> HeaderJson.parseAll(text));
    assertTrue(e.getMessage().startsWith("line 2: "), e.getMessage());
  }
}
