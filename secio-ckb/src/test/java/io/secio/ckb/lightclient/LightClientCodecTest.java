package io.secio.ckb.lightclient;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.secio.ckb.header.Byte32;
import io.secio.ckb.header.Header;
import io.secio.ckb.testing.CkbVectors;
import io.secio.molecule.Molecule;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LightClientCodecTest {
  private static byte[] example(String name) {
    JsonObject file = JsonParser.parseString(new String(CkbVectors.bytes("molecule-examples.json"),
        StandardCharsets.UTF_8)).getAsJsonObject();
    for (JsonElement e : file.getAsJsonArray("examples")) {
      if (e.getAsJsonObject().get("name").getAsString().equals(name)) {
        return HexFormat.of().parseHex(e.getAsJsonObject().get("hex").getAsString());
      }
    }
    throw new IllegalArgumentException(name);
  }

  private static byte[] testnetHeader4() {
    JsonObject file = JsonParser.parseString(new String(CkbVectors.bytes("testnet-headers.json"),
        StandardCharsets.UTF_8)).getAsJsonObject();
    return HexFormat.of().parseHex(file.getAsJsonArray("headers").get(4).getAsJsonObject().get("header_hex").getAsString());
  }

  @Test
  void getLastStateAsTheVectors() throws Exception {
    for (boolean subscribe : new boolean[] {true, false}) {
      byte[] bytes = example(subscribe ? "get_last_state_subscribe" : "get_last_state_no_subscribe");
      assertEquals(new LightClientMessage.GetLastState(subscribe), LightClientCodec.decode(bytes));
      assertArrayEquals(bytes, LightClientCodec.encode(new LightClientMessage.GetLastState(subscribe)));
    }
  }

  @Test
  void sendLastStateAsTheVector() throws Exception {
    byte[] bytes = example("send_last_state_layout_only");
    VerifiableHeader expected = new VerifiableHeader(Header.fromBytes(testnetHeader4()), Byte32.ZERO,
        Optional.empty(), HeaderDigest.ZERO);
    assertEquals(new LightClientMessage.SendLastState(expected), LightClientCodec.decode(bytes));
    assertArrayEquals(bytes, LightClientCodec.encode(new LightClientMessage.SendLastState(expected)));
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void anExtensionRoundTrips(long seed) throws Exception {
    Random random = new Random(seed);
    byte[] extension = new byte[random.nextInt(97)];
    random.nextBytes(extension);
    byte[] root = new byte[HeaderDigest.SIZE_IN_BYTES];
    random.nextBytes(root);
    VerifiableHeader header = new VerifiableHeader(Header.fromBytes(testnetHeader4()), Byte32.of(new byte[32]),
        Optional.of(extension), HeaderDigest.fromBytes(root));
    LightClientMessage message = new LightClientMessage.SendLastState(header);
    assertEquals(message, LightClientCodec.decode(LightClientCodec.encode(message)));
  }

  private static void refused(byte[] bytes, String why) {
    LightClientMessageException e = assertThrows(LightClientMessageException.class, () -> LightClientCodec.decode(bytes));
    assertTrue(e.getMessage().contains(why), e.getMessage());
  }

  @Test
  void readsStrictly() {
    byte[] get = example("get_last_state_subscribe");
    byte[] notBool = get.clone();
    notBool[12] = 2;
    refused(notBool, "no Bool");
    // A second field: the full node's strict reader refuses it.
    byte[] extraField = union(0, Molecule.table(new byte[] {1}, new byte[] {0}));
    refused(extraField, "more fields");
    refused(union(0, Molecule.table(new byte[] {1, 0})), "no Bool");
    refused(Arrays.copyOf(get, get.length - 1), "GetLastState");
    refused(Arrays.copyOf(get, get.length + 1), "GetLastState");
    refused(union(8, Molecule.table()), "no item 8");
    refused(union(3, Molecule.table()), "not supported");
    refused(new byte[3], "shorter");
    byte[] send = example("send_last_state_layout_only");
    byte[] inner = Arrays.copyOfRange(send, 12, send.length);
    // The header field cut by one byte, everything after it moved: a VerifiableHeader of a 207-byte header.
    byte[][] fields = new byte[4][];
    fields[0] = Arrays.copyOfRange(inner, 20, 227);
    fields[1] = Arrays.copyOfRange(inner, 228, 260);
    fields[2] = new byte[0];
    fields[3] = Arrays.copyOfRange(inner, 260, 380);
    refused(union(1, Molecule.table(Molecule.table(fields))), "header is 207 bytes");
    byte[][] badExtension = {testnetHeader4(), new byte[32], new byte[] {5, 0, 0, 0, 1}, new byte[120]};
    refused(union(1, Molecule.table(Molecule.table(badExtension))), "extension");
  }

  private static byte[] union(int id, byte[] item) {
    byte[] out = new byte[4 + item.length];
    out[0] = (byte) id;
    System.arraycopy(item, 0, out, 4, item.length);
    return out;
  }
}
