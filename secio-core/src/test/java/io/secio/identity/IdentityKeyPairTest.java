package io.secio.identity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.Dialect;
import io.secio.PeerId;
import io.secio.protocol.SecioException;
import io.secio.testing.Hex;
import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Generation, protobuf round trips, signing and rejection of bad keys, for every key type. */
class IdentityKeyPairTest {
  private static final byte[] MESSAGE =
      "propose-out || propose-in || epub".getBytes(StandardCharsets.US_ASCII);
  private static final Map<KeyType, String> PEER_ID_PREFIX = Map.of(
      KeyType.ED25519, "12D3KooW",
      KeyType.SECP256K1, "16Uiu2",
      KeyType.RSA, "Qm",
      KeyType.ECDSA, "Qm");

  /** Seeded per type so that a failure reproduces. */
  private static SecureRandom seededRandom(KeyType type) {
    SecureRandom random;
    try {
      random = SecureRandom.getInstance("SHA1PRNG");
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
    random.setSeed(type.ordinal() + 20240601L);
    return random;
  }

  @ParameterizedTest
  @EnumSource(KeyType.class)
  void generatedKeyRoundTripsThroughProtobuf(KeyType type) throws Exception {
    IdentityKeyPair pair = IdentityKeyPair.generate(type, seededRandom(type));
    assertEquals(type, pair.type());

    IdentityKeyPair reloaded = IdentityKeyPair.fromProtobuf(pair.toProtobuf());
    assertArrayEquals(pair.toProtobuf(), reloaded.toProtobuf());
    assertEquals(pair.publicKey(), reloaded.publicKey());

    IdentityPublicKey remote = IdentityPublicKey.fromProtobuf(pair.publicKey().toProtobuf());
    assertEquals(pair.publicKey(), remote);
    assertEquals(pair.publicKey().hashCode(), remote.hashCode());
    assertEquals(type, remote.type());
    byte[] publicProtobuf = pair.publicKey().toProtobuf();
    assertArrayEquals(KeyProtobufs.encode(type, KeyProtobufs.dataOf(publicProtobuf)), publicProtobuf);
    byte[] privateProtobuf = pair.toProtobuf();
    assertArrayEquals(KeyProtobufs.encode(type, KeyProtobufs.dataOf(privateProtobuf)), privateProtobuf);

    assertTrue(remote.verify(MESSAGE, pair.sign(MESSAGE)));
    assertTrue(remote.verify(MESSAGE, reloaded.sign(MESSAGE)));
    assertTrue(pair.publicKey().verify(new byte[0], pair.sign(new byte[0])));
  }

  @ParameterizedTest
  @EnumSource(KeyType.class)
  void peerIdHasTheTypesPrefix(KeyType type) {
    IdentityKeyPair pair = IdentityKeyPair.generate(type, seededRandom(type));
    PeerId id = Dialect.LIBP2P.peerId(pair.publicKey());
    assertTrue(id.toBase58().startsWith(PEER_ID_PREFIX.get(type)), id.toBase58());
    assertTrue(Dialect.LIBP2P.matches(id, pair.publicKey()));
    assertEquals(id, PeerId.parse(id.toBase58()));
  }

  @ParameterizedTest
  @EnumSource(KeyType.class)
  void tamperedMessageOrSignatureFails(KeyType type) {
    IdentityKeyPair pair = IdentityKeyPair.generate(type, seededRandom(type));
    IdentityPublicKey key = pair.publicKey();
    byte[] signature = pair.sign(MESSAGE);

    byte[] otherMessage = MESSAGE.clone();
    otherMessage[3] ^= 0x01;
    assertFalse(key.verify(otherMessage, signature));
    for (int i = 0; i < signature.length; i++) {
      byte[] flipped = signature.clone();
      flipped[i] ^= 0x40;
      assertFalse(key.verify(MESSAGE, flipped), "bit flip at byte " + i);
    }
    assertFalse(key.verify(MESSAGE, Arrays.copyOf(signature, signature.length - 1)));
    assertFalse(key.verify(MESSAGE, Arrays.copyOf(signature, signature.length + 1)));
    assertFalse(key.verify(MESSAGE, new byte[0]));
    IdentityKeyPair other = IdentityKeyPair.generate(type, new SecureRandom());
    assertFalse(other.publicKey().verify(MESSAGE, signature), "another key of the same type");
  }

  /** The fingerprint is the first 8 bytes of SHA-256 of the key's data (FIPS 180-2's "abc"). */
  @Test
  void aFingerprintIsTheStartOfTheKeysSha256() {
    assertEquals("sha256:ba7816bf8f01cfea",
        Libp2pPublicKey.fingerprint("abc".getBytes(StandardCharsets.US_ASCII)));
  }

  @ParameterizedTest
  @EnumSource(KeyType.class)
  void toStringShowsTypeAndPublicKeyOnly(KeyType type) {
    IdentityKeyPair pair = IdentityKeyPair.generate(type, seededRandom(type));
    String text = pair.toString();
    assertTrue(text.contains(type.toString()), text);
    assertTrue(text.contains(Libp2pPublicKey.fingerprint(pair.publicKey().keyData())), text);
    byte[] privateProtobuf = pair.toProtobuf();
    // No 8-byte run of the private protobuf may appear, in hex.
    String privateHex = Hex.encode(privateProtobuf);
    for (int i = 8; i + 16 <= privateHex.length(); i += 16) {
      assertFalse(text.toLowerCase().contains(privateHex.substring(i, i + 16)), text);
    }
  }

  @Test
  void ed25519LegacyPrivateKeyIsAccepted() throws Exception {
    IdentityKeyPair pair = IdentityKeyPair.generate(KeyType.ED25519, seededRandom(KeyType.ED25519));
    byte[] data = privateData(pair);
    assertEquals(64, data.length);
    byte[] legacy = IdentityKeyVectorsTest.concat(data, Arrays.copyOfRange(data, 32, 64));

    IdentityKeyPair imported =
        IdentityKeyPair.fromProtobuf(KeyProtobufs.encode(KeyType.ED25519, legacy));
    assertEquals(pair.publicKey(), imported.publicKey());
    assertArrayEquals(pair.toProtobuf(), imported.toProtobuf(), "written back in the 64-byte form");
    assertArrayEquals(pair.sign(MESSAGE), imported.sign(MESSAGE));
  }

  @Test
  void ed25519PrivateKeyWithAForeignPublicHalfIsRejected() {
    byte[] data = privateData(IdentityKeyPair.generate(KeyType.ED25519, seededRandom(KeyType.ED25519)));
    byte[] wrongPub = data.clone();
    wrongPub[40] ^= 1;
    assertThrows(IllegalArgumentException.class,
        () -> IdentityKeyPair.fromProtobuf(KeyProtobufs.encode(KeyType.ED25519, wrongPub)));
    byte[] legacyWrongThird = IdentityKeyVectorsTest.concat(data, new byte[32]);
    assertThrows(IllegalArgumentException.class,
        () -> IdentityKeyPair.fromProtobuf(KeyProtobufs.encode(KeyType.ED25519, legacyWrongThird)));
    assertThrows(IllegalArgumentException.class,
        () -> IdentityKeyPair.fromProtobuf(
            KeyProtobufs.encode(KeyType.ED25519, Arrays.copyOf(data, 32))));
  }

  @Test
  void malformedPublicKeyProtobufsAreRejected() {
    byte[] good = IdentityKeyPair.generate(KeyType.ED25519, seededRandom(KeyType.ED25519))
        .publicKey().toProtobuf();
    byte[] withUnknownField = IdentityKeyVectorsTest.concat(good, new byte[] {0x18, 0x01});
    byte[] unknownType = good.clone();
    unknownType[1] = 9;
    byte[] nonMinimalVarint = IdentityKeyVectorsTest.concat(
        new byte[] {0x08, (byte) 0x81, 0x00}, Arrays.copyOfRange(good, 2, good.length));
    byte[] dataOnly = Arrays.copyOfRange(good, 2, good.length);
    byte[] typeOnly = Arrays.copyOf(good, 2);
    for (byte[] bad : new byte[][] {
        new byte[0],
        Hex.decode("deadbeef"),
        Arrays.copyOf(good, good.length - 1),
        withUnknownField,
        unknownType,
        nonMinimalVarint,
        dataOnly,
        typeOnly,
        KeyProtobufs.encode(KeyType.ED25519, new byte[31]),
        KeyProtobufs.encode(KeyType.SECP256K1, new byte[33]),
        KeyProtobufs.encode(KeyType.RSA, new byte[300]),
        KeyProtobufs.encode(KeyType.ECDSA, new byte[91]),
        // A secp256k1 key sent as an Ed25519 key, and the reverse.
        KeyProtobufs.encode(KeyType.ED25519, Hex.decode(
            "0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798")),
        KeyProtobufs.encode(KeyType.SECP256K1, Arrays.copyOfRange(good, 4, good.length)),
    }) {
      SecioException e = assertThrows(
          SecioException.class, () -> IdentityPublicKey.fromProtobuf(bad), Hex.encode(bad));
      assertEquals(SecioException.Reason.MALFORMED_MESSAGE, e.reason());
    }
  }

  @Test
  void malformedPrivateKeyProtobufsAreRejected() {
    byte[] good =
        IdentityKeyPair.generate(KeyType.SECP256K1, seededRandom(KeyType.SECP256K1)).toProtobuf();
    byte[] unknownType = good.clone();
    unknownType[1] = 7;
    for (byte[] bad : new byte[][] {
        new byte[0],
        Arrays.copyOf(good, good.length - 1),
        unknownType,
        KeyProtobufs.encode(KeyType.SECP256K1, new byte[32]),
        KeyProtobufs.encode(KeyType.SECP256K1, Hex.decode(
            "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141")),
        KeyProtobufs.encode(KeyType.RSA, new byte[] {0x30, 0x00}),
        KeyProtobufs.encode(KeyType.ECDSA, new byte[] {0x30, 0x00}),
    }) {
      assertThrows(
          IllegalArgumentException.class, () -> IdentityKeyPair.fromProtobuf(bad), Hex.encode(bad));
    }
  }

  @ParameterizedTest
  @EnumSource(KeyType.class)
  void generationDrawsOnlyFromTheRandomItIsGiven(KeyType type) {
    assertArrayEquals(IdentityKeyPair.generate(type, seededRandom(type)).toProtobuf(),
        IdentityKeyPair.generate(type, seededRandom(type)).toProtobuf());
  }

  @ParameterizedTest
  @EnumSource(KeyType.class)
  void aPublicKeyShowsItsDataTypeAndFingerprint(KeyType type) throws Exception {
    IdentityPublicKey key = IdentityPublicKey.fromProtobuf(
        IdentityKeyPair.generate(type, seededRandom(type)).publicKey().toProtobuf());
    assertArrayEquals(KeyProtobufs.dataOf(key.toProtobuf()), key.keyData());
    String text = key.toString();
    assertTrue(text.contains(type.toString())
        && text.contains(Libp2pPublicKey.fingerprint(key.keyData())), text);

    // The peer id is the dialect's: any implementation of the interface gets the same one.
    IdentityPublicKey plain = new IdentityPublicKey() {
      @Override
      public KeyType type() {
        return key.type();
      }

      @Override
      public byte[] toProtobuf() {
        return key.toProtobuf();
      }

      @Override
      public byte[] keyData() {
        return key.keyData();
      }

      @Override
      public boolean verify(byte[] message, byte[] signature) {
        return key.verify(message, signature);
      }
    };
    assertEquals(Dialect.LIBP2P.peerId(key), Dialect.LIBP2P.peerId(plain));
  }

  @Test
  void aSecp256k1KeyFromItsCompressedPointIsTheSameKey() throws Exception {
    IdentityPublicKey key = IdentityKeyPair.generate(
        KeyType.SECP256K1, seededRandom(KeyType.SECP256K1)).publicKey();
    IdentityPublicKey fromPoint = IdentityPublicKey.fromSecp256k1(key.keyData());
    assertEquals(key, fromPoint);
    assertArrayEquals(key.toProtobuf(), fromPoint.toProtobuf());
    assertEquals(SecioException.Reason.MALFORMED_MESSAGE, assertThrows(SecioException.class,
        () -> IdentityPublicKey.fromSecp256k1(new byte[33])).reason());
  }

  @Test
  void differentKeysAreNotEqual() throws Exception {
    IdentityPublicKey a =
        IdentityKeyPair.generate(KeyType.ED25519, seededRandom(KeyType.ED25519)).publicKey();
    IdentityPublicKey b =
        IdentityKeyPair.generate(KeyType.ED25519, new SecureRandom()).publicKey();
    assertNotEquals(a, b);
    assertNotEquals(a.hashCode(), b.hashCode());
    assertNotEquals(Dialect.LIBP2P.peerId(a), Dialect.LIBP2P.peerId(b));
    assertFalse(Dialect.LIBP2P.matches(Dialect.LIBP2P.peerId(a), b));
  }

  static byte[] privateData(IdentityKeyPair pair) {
    return KeyProtobufs.dataOf(pair.toProtobuf());
  }
}
