package io.secio.ckb.header;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HexFormat;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

class CkbhashTest {

  @TestFactory
  Stream<DynamicTest> everyVectorOfCkbhashJson() {
    return Vectors.objects(Vectors.json("ckbhash.json").getAsJsonArray("vectors")).stream()
        .map(e -> DynamicTest.dynamicTest(e.get("label").getAsString(), () -> {
          byte[] input = Vectors.hex(e, "input_hex");
          assertEquals(e.get("input_len").getAsInt(), input.length);
          assertEquals(e.get("output_hex").getAsString(), HexFormat.of().formatHex(Ckbhash.hash(input)));
        }));
  }

  @Test
  void aRunningHashOverPartsIsTheHashOfTheWhole() {
    byte[] whole = "abc".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    Ckbhash running = new Ckbhash();
    running.update(whole, 0, 1).update(whole, 1, 2);
    assertEquals("521c604cc09b814b0a9106305395def35d0211b9996a3e0f326ae4d671bd8fc2",
        HexFormat.of().formatHex(running.finish()));
    // finish starts again empty: the next hash is the empty input's.
    assertEquals("44f4c69744d5f8c55d642062949dcae49bc4e7ef43d388c5a12f42b5633d163e",
        HexFormat.of().formatHex(running.finish()));
    assertEquals(HexFormat.of().formatHex(Ckbhash.hash(whole)),
        HexFormat.of().formatHex(Ckbhash.hash(new byte[] {'a'}, new byte[] {'b', 'c'})));
  }
}
