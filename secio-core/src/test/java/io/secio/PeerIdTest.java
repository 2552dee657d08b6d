package io.secio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.IdentityPublicKey;
import io.secio.identity.KeyType;
import io.secio.testing.Hex;
import io.secio.testing.Vectors;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class PeerIdTest {

  @ParameterizedTest
  @CsvSource({
    "'', ''",
    "00, 1",
    "00000001, 1112",
    "48656c6c6f20576f726c6421, 2NEpo7TZRRrLZSi2U",
    "00eb15231dfceb60925886b67d065299925915aeb172c06647, 1NS17iag9jJgTHD1VXjvLCEnZuQ3rJDE9L",
    "ff, 5Q",
  })
  void base58KnownAnswers(String hex, String base58) {
    assertEquals(base58, Base58.encode(Hex.decode(hex)));
    assertArrayEquals(Hex.decode(hex), Base58.decode(base58));
  }

  @Test
  void base58RoundTripsWithLeadingZeros() {
    long seed = 7;
    Random random = new Random(seed);
    for (int i = 0; i < 500; i++) {
      byte[] bytes = new byte[random.nextInt(50)];
      random.nextBytes(bytes);
      Arrays.fill(bytes, 0, Math.min(bytes.length, random.nextInt(4)), (byte) 0);
      assertArrayEquals(bytes, Base58.decode(Base58.encode(bytes)), "seed " + seed + ", case " + i);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "O", "I", "l", "+", " ", "Qm0"})
  void base58RejectsCharactersOutsideTheAlphabet(String text) {
    assertThrows(IllegalArgumentException.class, () -> Base58.decode(text));
  }

  @Test
  void knownPeerIdsParseAndPrint() {
    for (JsonElement element : Vectors.kats().getAsJsonArray("peerIds")) {
      JsonObject vector = element.getAsJsonObject();
      String text = vector.get("peerId").getAsString();
      PeerId id = PeerId.parse(text);
      assertArrayEquals(Vectors.hex(vector, "peerIdMultihash"), id.toBytes());
      assertEquals(text, id.toBase58());
      assertEquals(text, id.toString());
      assertEquals(id, PeerId.fromBytes(id.toBytes()));
      assertEquals(id.hashCode(), PeerId.fromBytes(id.toBytes()).hashCode());
    }
  }

  @Test
  void keysOfUpTo42BytesAreInlinedAndLongerOnesHashed() throws Exception {
    byte[] inline = new byte[42];
    Arrays.fill(inline, (byte) 0x5a);
    byte[] expectedInline = new byte[44];
    expectedInline[1] = 42;
    System.arraycopy(inline, 0, expectedInline, 2, 42);
    assertArrayEquals(expectedInline, Dialect.LIBP2P.peerId(fakeKey(inline)).toBytes());

    byte[] hashed = Arrays.copyOf(inline, 43);
    byte[] digest = MessageDigest.getInstance("SHA-256").digest(hashed);
    byte[] expectedHashed = new byte[34];
    expectedHashed[0] = 0x12;
    expectedHashed[1] = 0x20;
    System.arraycopy(digest, 0, expectedHashed, 2, 32);
    PeerId id = Dialect.LIBP2P.peerId(fakeKey(hashed));
    assertArrayEquals(expectedHashed, id.toBytes());
    assertTrue(id.toBase58().startsWith("Qm"), id.toBase58());
  }

  static Stream<String> notPeerIdMultihashes() {
    return Stream.of(
        "",
        "00",
        "0000", // identity of nothing
        "0001", // length byte says 1, nothing follows
        "000100aa", // length byte says 1, two bytes follow
        "0002aa", // length byte says 2, one byte follows
        "1220", // sha2-256 without a digest
        "121f" + "00".repeat(31), // sha2-256 with a 31-byte digest
        "1220" + "00".repeat(31),
        "1220" + "00".repeat(33),
        "1340" + "00".repeat(64), // sha2-512
        "1320" + "00".repeat(32),
        "0120aa");
  }

  @ParameterizedTest
  @MethodSource("notPeerIdMultihashes")
  void onlyIdentityAndSha256MultihashesAreIds(String hex) {
    byte[] multihash = Hex.decode(hex);
    assertThrows(IllegalArgumentException.class, () -> PeerId.fromBytes(multihash), hex);
    if (multihash.length > 0) {
      String text = Base58.encode(multihash);
      assertThrows(IllegalArgumentException.class, () -> PeerId.parse(text), text);
    }
  }

  @Test
  void identityMultihashOfMoreThan42BytesIsNotAnId() {
    byte[] multihash = new byte[2 + 43];
    multihash[1] = 43;
    assertThrows(IllegalArgumentException.class, () -> PeerId.fromBytes(multihash));
    byte[] ok = Arrays.copyOf(multihash, 2 + 42);
    ok[1] = 42;
    assertEquals(44, PeerId.fromBytes(ok).toBytes().length);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "12D3KooW0", "QmQBDSWypmTn4fBckNJfHS2jFvJ4ysijezQeeimXf6vHp9 "})
  void parseRejectsBadText(String text) {
    assertThrows(IllegalArgumentException.class, () -> PeerId.parse(text));
  }

  @Test
  void parseRejectsOverlongTextBeforeDecoding() {
    assertThrows(IllegalArgumentException.class, () -> PeerId.parse("2".repeat(100_000)));
  }

  @Test
  void matchesOnlyItsOwnKey() {
    IdentityKeyPair mine = IdentityKeyPair.generate(KeyType.ED25519, new SecureRandom());
    IdentityKeyPair other = IdentityKeyPair.generate(KeyType.SECP256K1, new SecureRandom());
    PeerId id = PeerId.parse(Dialect.LIBP2P.peerId(mine.publicKey()).toBase58());
    assertTrue(Dialect.LIBP2P.matches(id, mine.publicKey()));
    assertFalse(Dialect.LIBP2P.matches(id, other.publicKey()));
    assertNotEquals(id, Dialect.LIBP2P.peerId(other.publicKey()));
  }

  @Test
  void bytesAreCopied() {
    PeerId id = PeerId.parse("QmQBDSWypmTn4fBckNJfHS2jFvJ4ysijezQeeimXf6vHp9");
    byte[] bytes = id.toBytes();
    bytes[5] ^= 1;
    assertNotEquals(Hex.encode(bytes), Hex.encode(id.toBytes()));
    assertEquals(PeerId.fromBytes(id.toBytes()), id);
    PeerId copy = PeerId.fromBytes(bytes);
    bytes[6] ^= 1;
    assertNotEquals(Hex.encode(bytes), Hex.encode(copy.toBytes()));
  }

  /** PeerId only reads the protobuf bytes, so any byte string can stand in for a key. */
  private static IdentityPublicKey fakeKey(byte[] protobuf) {
    return new IdentityPublicKey() {
      @Override
      public KeyType type() {
        return KeyType.RSA;
      }

      @Override
      public byte[] toProtobuf() {
        return protobuf.clone();
      }

      @Override
      public byte[] keyData() {
        throw new UnsupportedOperationException("PeerId never reads it");
      }

      @Override
      public boolean verify(byte[] message, byte[] signature) {
        return false;
      }
    };
  }
}
