package io.secio.handshake;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.secio.protocol.SecioException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The molecule decoders of the tentacle dialect on any bytes a peer can send: only {@link
 * SecioException} MALFORMED_MESSAGE escapes (or PROPOSAL_TOO_LONG for a Propose); what decodes looks like a table to the one-port
 * detector, re-encodes to a message that decodes to the same values, and is that exact input when
 * it had no extra fields (molecule has one encoding per value).
 */
class MoleculeMessagesFuzzTest {

  @FuzzTest
  void anyPropose(byte[] bytes) {
    Propose p;
    try {
      p = MoleculeMessages.decodePropose(bytes);
    } catch (SecioException e) {
      if (e.reason() != SecioException.Reason.PROPOSAL_TOO_LONG) {
        assertMalformed(e);
      }
      return;
    }
    assertEquals(Propose.NONCE_SIZE_IN_BYTES, p.rand().length, "nonce");
    assertTrue(MoleculeMessages.startsLikeTable(ByteBuffer.wrap(bytes), bytes.length,
        MoleculeMessages.PROPOSE_FIELD_COUNT), "a decoded Propose is a table to the detector");
    byte[] encoded = MoleculeMessages.encodePropose(p);
    Propose again = decode(() -> MoleculeMessages.decodePropose(encoded));
    assertArrayEquals(p.rand(), again.rand());
    assertArrayEquals(p.pubkey(), again.pubkey());
    assertEquals(p.exchanges(), again.exchanges());
    assertEquals(p.ciphers(), again.ciphers());
    assertEquals(p.hashes(), again.hashes());
    if (fieldCount(bytes) == MoleculeMessages.PROPOSE_FIELD_COUNT) {
      assertArrayEquals(bytes, encoded, "one encoding per Propose");
    }
  }

  @FuzzTest
  void anyExchange(byte[] bytes) {
    Exchange x;
    try {
      x = MoleculeMessages.decodeExchange(bytes);
    } catch (SecioException e) {
      assertMalformed(e);
      return;
    }
    byte[] encoded = MoleculeMessages.encodeExchange(x);
    Exchange again = decode(() -> MoleculeMessages.decodeExchange(encoded));
    assertArrayEquals(x.epubkey(), again.epubkey());
    assertArrayEquals(x.signature(), again.signature());
    if (fieldCount(bytes) == MoleculeMessages.EXCHANGE_FIELD_COUNT) {
      assertArrayEquals(bytes, encoded, "one encoding per Exchange");
    }
  }

  @FuzzTest
  void anyPublicKeyUnion(byte[] bytes) {
    byte[] key;
    try {
      key = MoleculeMessages.decodePublicKey(bytes);
    } catch (SecioException e) {
      assertMalformed(e);
      return;
    }
    assertArrayEquals(bytes, MoleculeMessages.encodePublicKey(key), "one encoding per union");
  }

  private interface Decode<T> {
    T run() throws SecioException;
  }

  private static <T> T decode(Decode<T> decode) {
    try {
      return decode.run();
    } catch (SecioException e) {
      throw new AssertionError("an encoded message does not decode", e);
    }
  }

  private static int fieldCount(byte[] table) {
    return ByteBuffer.wrap(table).order(ByteOrder.LITTLE_ENDIAN).getInt(4) / 4 - 1;
  }

  private static void assertMalformed(SecioException e) {
    assertEquals(SecioException.Reason.MALFORMED_MESSAGE, e.reason(), e.getMessage());
  }
}
