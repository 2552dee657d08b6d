package io.secio.handshake;

import static io.secio.testing.Vectors.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.secio.protocol.SecioException;
import io.secio.testing.Hex;
import io.secio.testing.TentacleTranscripts;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** The molecule codec against every message tentacle wrote in the transcripts, and every way to break one. */
class MoleculeMessagesTest {
  private static final JsonObject DEFAULTS = TentacleTranscripts.load("defaults_fixed");
  private static final byte[] PROPOSE = hex(DEFAULTS.getAsJsonObject("A"), "propose");
  private static final byte[] EXCHANGE = hex(DEFAULTS.getAsJsonObject("A"), "exchange");

  @TestFactory
  Stream<DynamicTest> everyTranscriptMessageDecodesAndEncodesBackToItsBytes() {
    return TentacleTranscripts.NAMES.stream().flatMap(name -> Stream.of("A", "B").map(side ->
        DynamicTest.dynamicTest(name + " " + side, () -> {
          JsonObject s = TentacleTranscripts.load(name).getAsJsonObject(side);
          JsonObject fields = s.getAsJsonObject("propose_fields");
          byte[] propose = hex(s, "propose");
          Propose p = MoleculeMessages.decodePropose(propose);
          assertArrayEquals(hex(fields, "rand"), p.rand());
          assertArrayEquals(hex(fields, "pubkey (molecule PublicKey union bytes)"), p.pubkey());
          assertEquals(fields.get("exchanges").getAsString(), p.exchanges());
          assertEquals(fields.get("ciphers").getAsString(), p.ciphers());
          assertEquals(fields.get("hashes").getAsString(), p.hashes());
          assertArrayEquals(propose, MoleculeMessages.encodePropose(p));

          assertArrayEquals(hex(s, "pubkey33"), MoleculeMessages.decodePublicKey(p.pubkey()));
          assertArrayEquals(p.pubkey(), MoleculeMessages.encodePublicKey(hex(s, "pubkey33")));

          byte[] exchange = hex(s, "exchange");
          Exchange e = MoleculeMessages.decodeExchange(exchange);
          assertArrayEquals(hex(s, "epub"), e.epubkey());
          assertArrayEquals(hex(s, "signature_der"), e.signature());
          assertArrayEquals(exchange, MoleculeMessages.encodeExchange(e));
        })));
  }

  @Test
  void extraTrailingFieldsAreAcceptedAndSkipped() throws SecioException {
    Propose p = MoleculeMessages.decodePropose(PROPOSE);
    byte[] newer = withExtraField(PROPOSE, Hex.decode("03000000aabbcc"));
    Propose q = MoleculeMessages.decodePropose(newer);
    assertArrayEquals(p.rand(), q.rand());
    assertArrayEquals(p.pubkey(), q.pubkey());
    assertEquals(p.hashes(), q.hashes());
    // An extra field is not checked, as in molecule's compatible mode: any bytes will do.
    MoleculeMessages.decodeExchange(withExtraField(EXCHANGE, new byte[] {1, 2}));
    MoleculeMessages.decodeExchange(withExtraField(EXCHANGE, new byte[0]));
  }

  @Test
  void proposalListsHaveTheLibp2pDialectsBounds() throws SecioException {
    Propose p = MoleculeMessages.decodePropose(PROPOSE);
    String many = String.join(",", java.util.Collections.nCopies(65, "P-256"));
    String longName = "P".repeat(65);
    for (Propose bad : List.of(
        new Propose(p.rand(), p.pubkey(), many, p.ciphers(), p.hashes()),
        new Propose(p.rand(), p.pubkey(), p.exchanges(), longName, p.hashes()),
        new Propose(p.rand(), p.pubkey(), p.exchanges(), p.ciphers(), many))) {
      SecioException e = assertThrows(SecioException.class,
          () -> MoleculeMessages.decodePropose(MoleculeMessages.encodePropose(bad)));
      assertEquals(SecioException.Reason.PROPOSAL_TOO_LONG, e.reason());
    }
  }

  @Test
  void everyTruncationAndEveryExtensionIsRefused() {
    for (int n = 0; n < PROPOSE.length; n++) {
      byte[] cut = Arrays.copyOf(PROPOSE, n);
      assertMalformed(() -> MoleculeMessages.decodePropose(cut));
      byte[] cutAndResized = withU32(cut, 0, n);
      assertMalformed(() -> MoleculeMessages.decodePropose(cutAndResized));
    }
    assertMalformed(() -> MoleculeMessages.decodePropose(Arrays.copyOf(PROPOSE, PROPOSE.length + 1)));
    // Grown by one byte and the size fixed: the last field's count no longer matches.
    byte[] grown = withU32(Arrays.copyOf(PROPOSE, PROPOSE.length + 1), 0, PROPOSE.length + 1);
    assertMalformed(() -> MoleculeMessages.decodePropose(grown));
  }

  @Test
  void inconsistentHeadersAreRefused() {
    // offset 0 = 0x18 = 4 * (1 + 5) in a Propose.
    for (int first : List.of(0, 4, 8, 0x14, 0x17, 0x19, 0x1a, PROPOSE.length + 4, -4)) {
      assertMalformed(() -> MoleculeMessages.decodePropose(withU32(PROPOSE, 4, first)));
    }
    // An Exchange is a table of two fields: a Propose's header names five, an Exchange's too few.
    assertMalformed(() -> MoleculeMessages.decodePropose(EXCHANGE));
    // Offsets out of order or out of the table.
    assertMalformed(() -> MoleculeMessages.decodePropose(withU32(PROPOSE, 8, 0x17)));
    assertMalformed(() -> MoleculeMessages.decodePropose(withU32(PROPOSE, 12, 0x2b)));
    assertMalformed(() -> MoleculeMessages.decodePropose(withU32(PROPOSE, 20, PROPOSE.length + 1)));
    assertMalformed(() -> MoleculeMessages.decodePropose(withU32(PROPOSE, 20, -1)));
    // A fixvec count that does not fill its field (rand's count at 0x18).
    for (int count : List.of(0, 15, 17, -1)) {
      assertMalformed(() -> MoleculeMessages.decodePropose(withU32(PROPOSE, 0x18, count)));
    }
  }

  @Test
  void aNonceOtherThan16BytesAndNonUtf8NamesAreRefused() throws SecioException {
    Propose p = MoleculeMessages.decodePropose(PROPOSE);
    for (int size : List.of(0, 15, 17, 32)) {
      byte[] bytes = MoleculeMessages.encodePropose(
          new Propose(new byte[size], p.pubkey(), p.exchanges(), p.ciphers(), p.hashes()));
      assertMalformed(() -> MoleculeMessages.decodePropose(bytes));
    }
    byte[] bytes = MoleculeMessages.encodePropose(p);
    int hashes = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(20);
    bytes[hashes + 4] = (byte) 0xff;
    assertMalformed(() -> MoleculeMessages.decodePropose(bytes));
  }

  @Test
  void thePublicKeyUnionHasOneItemAndAnExactCount() {
    byte[] union = MoleculeMessages.encodePublicKey(new byte[33]);
    assertEquals("000000002100000000", Hex.encode(Arrays.copyOf(union, 9)));
    assertMalformed(() -> MoleculeMessages.decodePublicKey(new byte[0]));
    assertMalformed(() -> MoleculeMessages.decodePublicKey(new byte[3]));
    assertMalformed(() -> MoleculeMessages.decodePublicKey(new byte[4]));
    assertMalformed(() -> MoleculeMessages.decodePublicKey(withU32(union, 0, 1)));
    assertMalformed(() -> MoleculeMessages.decodePublicKey(withU32(union, 4, 32)));
    assertMalformed(() -> MoleculeMessages.decodePublicKey(Arrays.copyOf(union, union.length + 1)));
  }

  @Test
  void startsLikeTableNeedsTheSizeAndAConsistentFirstOffset() {
    assertTrue(MoleculeMessages.startsLikeTable(ByteBuffer.wrap(PROPOSE), PROPOSE.length, 5));
    assertTrue(MoleculeMessages.startsLikeTable(ByteBuffer.wrap(PROPOSE, 0, 8), PROPOSE.length, 5));
    assertFalse(MoleculeMessages.startsLikeTable(ByteBuffer.wrap(PROPOSE, 0, 7), PROPOSE.length, 5));
    assertFalse(MoleculeMessages.startsLikeTable(ByteBuffer.wrap(PROPOSE), PROPOSE.length - 1, 5));
    assertFalse(MoleculeMessages.startsLikeTable(ByteBuffer.wrap(EXCHANGE), EXCHANGE.length, 5));
    assertTrue(MoleculeMessages.startsLikeTable(ByteBuffer.wrap(EXCHANGE), EXCHANGE.length, 2));
  }

  /** The table with one more field holding {@code extra}; offsets and size moved to fit. */
  static byte[] withExtraField(byte[] table, byte[] extra) {
    ByteBuffer in = ByteBuffer.wrap(table).order(ByteOrder.LITTLE_ENDIAN);
    int fields = in.getInt(4) / 4 - 1;
    int total = table.length + 4 + extra.length;
    ByteBuffer out = ByteBuffer.allocate(total).order(ByteOrder.LITTLE_ENDIAN).putInt(total);
    for (int i = 0; i < fields; i++) {
      out.putInt(in.getInt(4 + 4 * i) + 4);
    }
    out.putInt(table.length + 4);
    out.put(table, 4 + 4 * fields, table.length - 4 - 4 * fields).put(extra);
    return out.array();
  }

  private static byte[] withU32(byte[] bytes, int at, int value) {
    byte[] copy = bytes.clone();
    if (at + 4 <= copy.length) {
      ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN).putInt(at, value);
    }
    return copy;
  }

  private static void assertMalformed(org.junit.jupiter.api.function.Executable decode) {
    SecioException e = assertThrows(SecioException.class, decode);
    assertEquals(SecioException.Reason.MALFORMED_MESSAGE, e.reason(), e.getMessage());
  }
}
