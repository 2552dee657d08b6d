package io.secio.identity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.secio.Dialect;
import io.secio.PeerId;
import io.secio.testing.Hex;
import io.secio.testing.Vectors;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.asn1.sec.SECObjectIdentifiers;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Identity keys and peer ids against {@code secio-kats.json} and the libp2p secio transcript. */
class IdentityKeyVectorsTest {

  @TestFactory
  Stream<DynamicTest> peerIdsOfKnownKeys() {
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonElement element : Vectors.kats().getAsJsonArray("peerIds")) {
      JsonObject vector = element.getAsJsonObject();
      String type = vector.get("type").getAsString();
      tests.add(DynamicTest.dynamicTest(type, () -> checkPeerIdVector(vector)));
    }
    assertEquals(3, tests.size(), "peerIds entries in secio-kats.json");
    return tests.stream();
  }

  private static void checkPeerIdVector(JsonObject vector) throws Exception {
    KeyType type = keyType(vector.get("type").getAsString());
    IdentityKeyPair pair = IdentityKeyPair.fromProtobuf(
        KeyProtobufs.encode(type, privateData(type, vector.get("private").getAsString())));
    byte[] expectedProtobuf = Vectors.hex(vector, "publicKeyProtobuf");

    assertEquals(type, pair.type());
    assertArrayEquals(expectedProtobuf, pair.publicKey().toProtobuf());
    assertEquals(pair.publicKey(), IdentityPublicKey.fromProtobuf(expectedProtobuf));
    PeerId id = Dialect.LIBP2P.peerId(pair.publicKey());
    assertArrayEquals(Vectors.hex(vector, "peerIdMultihash"), id.toBytes());
    assertEquals(vector.get("peerId").getAsString(), id.toBase58());
    assertEquals(id, PeerId.parse(vector.get("peerId").getAsString()));
    assertTrue(Dialect.LIBP2P.matches(id, IdentityPublicKey.fromProtobuf(expectedProtobuf)));

    byte[] message = "known key".getBytes(StandardCharsets.US_ASCII);
    assertTrue(pair.publicKey().verify(message, pair.sign(message)));
  }

  /** The vector gives Ed25519 as {@code seed || pub}, secp256k1 as the scalar, ECDSA as a phrase. */
  private static byte[] privateData(KeyType type, String text) throws IOException {
    if (type != KeyType.ECDSA) {
      return Hex.decode(text);
    }
    assertEquals("private scalar 1 on P-256", text);
    return new ECPrivateKey(256, BigInteger.ONE, SECObjectIdentifiers.secp256r1)
        .getEncoded(ASN1Encoding.DER);
  }

  private static KeyType keyType(String name) {
    switch (name) {
      case "RSA":
        return KeyType.RSA;
      case "Ed25519":
        return KeyType.ED25519;
      case "Secp256k1":
        return KeyType.SECP256K1;
      case "ECDSA":
        return KeyType.ECDSA;
      default:
        throw new IllegalArgumentException(name);
    }
  }

  @Test
  void transcriptPublicKeysComeFromTheSeeds() throws Exception {
    JsonObject transcript = Vectors.transcript();
    for (String side : new String[] {"A", "B"}) {
      JsonObject peer = transcript.getAsJsonObject(side);
      IdentityKeyPair pair = ed25519Of(peer);
      assertArrayEquals(Vectors.hex(peer, "pub"), pair.publicKey().toProtobuf(), side);
      assertEquals(pair.publicKey(), IdentityPublicKey.fromProtobuf(Vectors.hex(peer, "pub")), side);
    }
  }

  /** Spec 4: each side signs {@code proposeOut || proposeIn || epub}; Ed25519 is deterministic. */
  @Test
  void transcriptExchangeSignatures() throws Exception {
    JsonObject transcript = Vectors.transcript();
    JsonObject a = transcript.getAsJsonObject("A");
    JsonObject b = transcript.getAsJsonObject("B");
    checkExchangeSignature(a, b);
    checkExchangeSignature(b, a);
  }

  private static void checkExchangeSignature(JsonObject signer, JsonObject peer) throws Exception {
    IdentityKeyPair pair = ed25519Of(signer);
    byte[] signed = concat(
        Vectors.hex(signer, "propose"), Vectors.hex(peer, "propose"), Vectors.hex(signer, "epub"));
    byte[] expected = Vectors.hex(signer, "sig");

    assertArrayEquals(expected, pair.sign(signed));
    // What the peer does on receipt: verify with the key from the signer's Propose.
    IdentityPublicKey remote = IdentityPublicKey.fromProtobuf(Vectors.hex(signer, "pub"));
    assertTrue(remote.verify(signed, expected));
    byte[] swapped = concat(
        Vectors.hex(peer, "propose"), Vectors.hex(signer, "propose"), Vectors.hex(signer, "epub"));
    assertFalse(remote.verify(swapped, expected), "the Propose order is part of what is signed");
  }

  /**
   * The key pair of a transcript side. The import derives the public key from the seed and refuses
   * a {@code seed || pub} whose halves disagree, so this checks the derivation against {@code pub}.
   */
  private static IdentityKeyPair ed25519Of(JsonObject peer) {
    byte[] seed = Vectors.hex(peer, "seed");
    byte[] publicProtobuf = Vectors.hex(peer, "pub");
    byte[] pub = Arrays.copyOfRange(publicProtobuf, publicProtobuf.length - 32, publicProtobuf.length);
    return IdentityKeyPair.fromProtobuf(KeyProtobufs.encode(KeyType.ED25519, concat(seed, pub)));
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }
}
