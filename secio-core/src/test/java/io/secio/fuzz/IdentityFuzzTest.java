package io.secio.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.secio.Dialect;
import io.secio.PeerId;
import io.secio.identity.IdentityPublicKey;
import io.secio.protocol.SecioException;

/**
 * The two parsers of untrusted identity data: a peer's {@code PublicKey} protobuf (only {@link
 * SecioException} MALFORMED_MESSAGE may escape, and what parses is canonical and usable) and the
 * base58 text of a peer id (only {@link IllegalArgumentException}, and what parses prints back as
 * itself).
 */
class IdentityFuzzTest {
  static final int MAX_SIGNATURE = 600;
  static final int MAX_MESSAGE = 64;

  @FuzzTest
  void publicKeyFromProtobuf(FuzzedDataProvider data) {
    byte[] message = data.consumeBytes(data.consumeInt(0, MAX_MESSAGE));
    byte[] signature = data.consumeBytes(data.consumeInt(0, MAX_SIGNATURE));
    byte[] encoded = data.consumeRemainingAsBytes();
    IdentityPublicKey key;
    try {
      key = IdentityPublicKey.fromProtobuf(encoded);
    } catch (SecioException e) {
      assertEquals(SecioException.Reason.MALFORMED_MESSAGE, e.reason(), "reason");
      return;
    }
    assertNotNull(key.type());
    // Only the canonical encoding parses: the peer id hashes these exact bytes.
    assertArrayEquals(encoded, key.toProtobuf(), "a key parses only from its own encoding");
    assertEquals(key.type().number(), encoded[1], "KeyType field");
    PeerId id = Dialect.LIBP2P.peerId(key);
    assertTrue(Dialect.LIBP2P.matches(id, key));
    assertEquals(id, PeerId.parse(id.toBase58()));
    try {
      assertEquals(key, IdentityPublicKey.fromProtobuf(key.toProtobuf()), "round trip");
    } catch (SecioException e) {
      throw new AssertionError("a parsed key does not parse again", e);
    }
    // Must answer, never throw, whatever the signature; its answer is not knowable here.
    key.verify(message, signature);
  }

  @FuzzTest
  void peerIdParse(FuzzedDataProvider data) {
    // Every character outside ASCII takes the same path as any non-base58 ASCII one.
    String text = data.consumeRemainingAsAsciiString();
    PeerId id;
    try {
      id = PeerId.parse(text);
    } catch (IllegalArgumentException e) {
      return;
    }
    // Base58 has one spelling per byte string, so a parsed id prints back as its input.
    assertEquals(text, id.toBase58(), "text round trip");
    byte[] multihash = id.toBytes();
    assertEquals(id, PeerId.fromBytes(multihash), "bytes round trip");
    int code = multihash[0] & 0xff;
    int length = multihash[1] & 0xff;
    assertEquals(multihash.length, 2 + length, "multihash length byte");
    if (code == 0x00) {
      assertTrue(length >= 1 && length <= 42, "identity multihash of " + length + " bytes");
    } else {
      assertEquals(0x12, code, "multihash code");
      assertEquals(32, length, "sha2-256 digest size");
    }
  }
}
