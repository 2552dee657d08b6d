package io.secio.ckb.lightclient;

import static io.secio.ckb.testing.MoleculeExamples.union;
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

  /** The sizes docs/CKB.md's serving plan counts with: a SendLastState without and with a 32-byte extension. */
  @Test
  void aSendLastStateIs392BytesAnd428WithTheChainRootExtension() {
    Header header = Header.fromBytes(testnetHeader4());
    assertEquals(392, LightClientCodec.encode(new LightClientMessage.SendLastState(
        new VerifiableHeader(header, Byte32.ZERO, Optional.empty(), HeaderDigest.ZERO))).length);
    assertEquals(428, LightClientCodec.encode(new LightClientMessage.SendLastState(
        new VerifiableHeader(header, Byte32.ZERO, Optional.of(new byte[32]), HeaderDigest.ZERO))).length);
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

  private static java.util.OptionalInt unsupported(byte[] bytes) {
    return assertThrows(LightClientMessageException.class, () -> LightClientCodec.decode(bytes)).unsupportedItem();
  }

  @Test
  void proofRequestsAreCheckedStrictlyAndNamedAsNotReadHere() {
    byte[] hashes = vector(2, 32);
    byte[] oneU256 = vector(1, 32);
    byte[] getLastStateProof = Molecule.table(new byte[32], new byte[32], new byte[8], new byte[8], new byte[32], oneU256);
    assertEquals(java.util.OptionalInt.of(2), unsupported(union(2, getLastStateProof)));
    assertEquals(java.util.OptionalInt.of(4), unsupported(union(4, Molecule.table(new byte[32], hashes))));
    assertEquals(java.util.OptionalInt.of(6), unsupported(union(6, Molecule.table(new byte[32], hashes))));
    // Malformed requests are malformed: a node bans for them.
    assertEquals(java.util.OptionalInt.empty(), unsupported(union(4, Molecule.table(new byte[31], hashes))));
    assertEquals(java.util.OptionalInt.empty(), unsupported(union(4, Molecule.table(new byte[32], new byte[] {2, 0, 0, 0, 1}))));
    assertEquals(java.util.OptionalInt.empty(), unsupported(union(6, Molecule.table(new byte[32], hashes, new byte[0]))));
    assertEquals(java.util.OptionalInt.empty(), unsupported(union(2, Molecule.table(new byte[32], new byte[32],
        new byte[8], new byte[8], new byte[31], oneU256))));
    // Proofs and the ids past the union are not read at all.
    assertEquals(java.util.OptionalInt.of(3), unsupported(union(3, Molecule.table())));
    assertEquals(java.util.OptionalInt.of(7), unsupported(union(7, new byte[] {1})));
    assertEquals(java.util.OptionalInt.empty(), unsupported(union(8, Molecule.table())));
    assertEquals(java.util.OptionalInt.empty(), unsupported(new byte[3]));
  }

  /** A fixvec of {@code count} zero items of {@code size} bytes. */
  private static byte[] vector(int count, int size) {
    byte[] out = new byte[4 + count * size];
    out[0] = (byte) count;
    return out;
  }

}
