package io.secio.ckb.header;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

class EaglesongTest {

  @TestFactory
  Stream<DynamicTest> everyVectorOfEaglesongJson() {
    JsonObject file = Vectors.json("eaglesong.json");
    List<JsonObject> entries = new ArrayList<>(Vectors.objects(file.getAsJsonArray("published")));
    entries.addAll(Vectors.objects(file.getAsJsonArray("derived")));
    assertEquals(17, entries.size());
    return entries.stream().map(e -> DynamicTest.dynamicTest(e.get("label").getAsString(),
        () -> assertEquals(e.get("output_hex").getAsString(),
            HexFormat.of().formatHex(Eaglesong.hash(Vectors.hex(e, "input_hex"))))));
  }

  @TestFactory
  Stream<DynamicTest> thePowMessagesOfTheTestnetHeaders() {
    return Vectors.testnetHeaderEntries().stream().map(e -> DynamicTest.dynamicTest("#" + e.get("number"),
        () -> assertEquals(e.get("eaglesong_output").getAsString(),
            HexFormat.of().formatHex(Eaglesong.hash(Vectors.hex(e, "pow_message_hex"))))));
  }

  @Test
  void anInstanceHashesIntoPlaceAndCanBeReused() {
    byte[] input = "Hello, world!\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    byte[] framed = new byte[input.length + 7];
    System.arraycopy(input, 0, framed, 3, input.length);
    Eaglesong eaglesong = new Eaglesong();
    byte[] out = new byte[40];
    for (int i = 0; i < 2; i++) {
      eaglesong.hash(framed, 3, input.length, out, 5);
      assertEquals("64867e2441d162615dc2430b6bcb4d3f4b95e4d0db529fca1eece73c077d72d6",
          HexFormat.of().formatHex(out, 5, 37));
    }
    assertArrayEquals(new byte[5], java.util.Arrays.copyOf(out, 5));
  }
}
