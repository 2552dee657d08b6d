package io.secio.tentacle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ProtocolInfo} against every protocol-select message of the recordings (encoded and decoded
 * byte for byte), tentacle's own {@code select_version} cases, and malformed messages.
 */
class ProtocolInfoTest {

  @Test
  void everyRecordedSelectMessageIsOursByteForByte() throws Exception {
    int checked = 0;
    for (JsonElement e : Recorded.json("insecure-session.json").getAsJsonArray("decoded")) {
      JsonObject o = e.getAsJsonObject();
      if (!o.has("protocol_select")) {
        continue;
      }
      JsonObject select = o.getAsJsonObject("protocol_select");
      List<String> versions = new ArrayList<>();
      select.getAsJsonArray("support_versions").forEach(v -> versions.add(v.getAsString()));
      ProtocolInfo info = new ProtocolInfo(select.get("name").getAsString(), versions);
      byte[] framed = Recorded.HEX.parseHex(o.get("hex").getAsString());
      byte[] body = Arrays.copyOfRange(framed, 4, framed.length);
      assertEquals(body.length, ((framed[0] & 0xff) << 24) | ((framed[1] & 0xff) << 16)
          | ((framed[2] & 0xff) << 8) | (framed[3] & 0xff), "the u32 BE prefix is the length");
      assertArrayEquals(body, info.encode(), o.get("text").getAsString());
      assertEquals(info, ProtocolInfo.decode(body));
      checked++;
    }
    assertEquals(4, checked, "two offers, two replies");
  }

  @Test
  void theReadmeBytesOfTheEchoOffer() {
    // vectors/tentacle-yamux/README.md: the dialer's echo offer ["2","1"], behind its 4-byte prefix.
    byte[] expected = Recorded.HEX.parseHex("300000000c0000001a0000000a0000002f746573742f6563686f"
        + "160000000c0000001100000001000000320100000031");
    assertArrayEquals(expected, new ProtocolInfo("/test/echo", List.of("2", "1")).encode());
  }

  @Test
  void aRefusalIsTheNameWithAnEmptyListOf34Bytes() throws Exception {
    byte[] refusal = new ProtocolInfo("/test/echo", List.of()).encode();
    assertEquals(34 - 4, refusal.length);
    assertEquals(List.of(), ProtocolInfo.decode(refusal).versions());
  }

  @Test
  void versionChoiceIsTentaclesSelectVersion() {
    // The recordings: offer ["2","1"] against ["1","2"] gives "1"; ["1","2"] gives "2".
    assertEquals("1", ProtocolInfo.selectVersion(List.of("1", "2"), List.of("2", "1")));
    assertEquals("2", ProtocolInfo.selectVersion(List.of("1", "2"), List.of("1", "2")));
    // tentacle's test_select_version: (local, remote).
    List<String> a = List.of("1.0.0", "1.1.1", "2.0.0");
    List<String> b = List.of("1.0.0", "2.0.0", "3.0.0");
    assertEquals("2.0.0", ProtocolInfo.selectVersion(b, a));
    assertEquals("1.0.0", ProtocolInfo.selectVersion(b, List.of("1.0.0")));
    assertNull(ProtocolInfo.selectVersion(b, List.of()));
    assertNull(ProtocolInfo.selectVersion(b, List.of("5.0.0")));
    assertNull(ProtocolInfo.selectVersion(List.of("5.0.0"), a));
    assertNull(ProtocolInfo.selectVersion(List.of("5.0.0"), List.of("1.0.0")));
    assertNull(ProtocolInfo.selectVersion(List.of("1.0.0"), List.of("5.0.0")));
    // tentacle's select_protocol tests (server, client).
    assertEquals("1.1.1", ProtocolInfo.selectVersion(List.of("1.0.0", "1.1.1"), List.of("1.0.0", "1.1.1")));
    assertEquals("1.0.0", ProtocolInfo.selectVersion(List.of("1.0.0", "2.1.1"), List.of("1.0.0", "1.1.1")));
    assertNull(ProtocolInfo.selectVersion(List.of("1.0.0", "1.1.1"), List.of("2.0.0", "2.1.1")));
    // Byte order, as Rust compares strings: "10" < "9", so a numerically ascending list misses "9".
    assertNull(ProtocolInfo.selectVersion(List.of("9", "10"), List.of("9")));
    // U+1F600 (F0 9F 98 80) > U+FF61 (EF BD A1) byte-wise, the other way round in UTF-16 order.
    assertEquals("\uFF61", ProtocolInfo.selectVersion(List.of("\uFF61", "\uD83D\uDE00"), List.of("\uFF61")));
  }

  @Test
  void malformedMessagesAreTypedFailures() {
    byte[] good = new ProtocolInfo("/test/echo", List.of("1")).encode();
    List<byte[]> bad = new ArrayList<>();
    bad.add(new byte[0]);
    bad.add(Arrays.copyOf(good, good.length - 1));
    byte[] longer = Arrays.copyOf(good, good.length + 1);
    bad.add(longer);
    byte[] badOffset = good.clone();
    badOffset[4] = 9; // offset 0 not a multiple of 4
    bad.add(badOffset);
    byte[] notUtf8 = good.clone();
    notUtf8[16] = (byte) 0xff; // first byte of the name
    bad.add(notUtf8);
    byte[] badCount = good.clone();
    badCount[12] = 11; // the name's count no longer matches its size
    bad.add(badCount);
    for (byte[] b : bad) {
      TentacleException e = assertThrows(TentacleException.class, () -> ProtocolInfo.decode(b));
      assertEquals(TentacleException.Reason.MALFORMED_SELECT, e.reason());
    }
  }
}
