package io.secio.handshake;

import static io.secio.testing.Vectors.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.secio.Dialect;
import io.secio.PeerId;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.IdentityPublicKey;
import io.secio.identity.KeyType;
import io.secio.protocol.SecioException;
import io.secio.testing.TentacleTranscripts;
import io.secio.testing.TestIdentities;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * tentacle's identity rules against every side of every transcript: the compressed key, the peer
 * id, the deterministic low-S signature over the recorded preimage, the refused high-S twin, and
 * the order over raw keys.
 */
class TentacleIdentityTest {

  @TestFactory
  Stream<DynamicTest> everySideOfEveryTranscript() {
    return TentacleTranscripts.NAMES.stream().flatMap(name -> Stream.of("A", "B").map(side ->
        DynamicTest.dynamicTest(name + " " + side, () -> {
          JsonObject t = TentacleTranscripts.load(name);
          JsonObject s = t.getAsJsonObject(side);
          JsonObject r = t.getAsJsonObject(TentacleTranscripts.other(side));
          IdentityKeyPair key = TestIdentities.secp256k1(hex(s, "seckey"));
          assertArrayEquals(hex(s, "pubkey33"), key.publicKey().keyData());

          PeerId id = Dialect.TENTACLE.peerId(key.publicKey());
          assertArrayEquals(hex(s, "peer_id_bytes (multihash sha256)"), id.toBytes());
          assertEquals(s.get("peer_id_base58").getAsString(), id.toBase58());
          assertEquals(id, PeerId.parse(id.toBase58()));

          byte[] preimage = hex(s, "sign_preimage");
          assertArrayEquals(hex(s, "signature_der"), key.sign(preimage), "RFC 6979, low-S, DER");
          IdentityPublicKey remoteView = IdentityPublicKey.fromSecp256k1(hex(s, "pubkey33"));
          assertTrue(remoteView.verify(preimage, hex(s, "signature_der")));
          assertFalse(remoteView.verify(
              preimage, hex(s, "signature_high_s_variant_der (REJECTED by tentacle)")), "high-S");

          int order = Negotiation.order(
              hex(s, "pubkey33"), hex(s, "nonce"), hex(r, "pubkey33"), hex(r, "nonce"));
          assertEquals(s.get("order = cmp(oh1, oh2)").getAsString(), order > 0 ? "Greater" : "Less");
        })));
  }

  @Test
  void onlyCompressedPointsOnTheCurveAreKeys() {
    byte[] good = TestIdentities.of(KeyType.SECP256K1).publicKey().keyData();
    byte[] uncompressedPrefix = good.clone();
    uncompressedPrefix[0] = 0x04;
    byte[] offCurve = good.clone();
    offCurve[32] ^= 1;
    for (byte[] bad : new byte[][] {new byte[0], new byte[33], new byte[32], uncompressedPrefix,
        java.util.Arrays.copyOf(good, 34)}) {
      SecioException e = assertThrows(SecioException.class, () -> IdentityPublicKey.fromSecp256k1(bad));
      assertEquals(SecioException.Reason.MALFORMED_MESSAGE, e.reason());
    }
    // Not every x has a point: either this one or its neighbour is refused, or both are keys.
    try {
      IdentityPublicKey.fromSecp256k1(offCurve);
    } catch (SecioException e) {
      assertEquals(SecioException.Reason.MALFORMED_MESSAGE, e.reason());
    }
  }

  @Test
  void aTentaclePeerIdNeedsASecp256k1Key() {
    IdentityPublicKey ed25519 = TestIdentities.of(KeyType.ED25519).publicKey();
    assertThrows(IllegalArgumentException.class, () -> Dialect.TENTACLE.peerId(ed25519));
    assertEquals(Dialect.LIBP2P.peerId(ed25519), Dialect.LIBP2P.peerId(ed25519));
    IdentityPublicKey k1 = TestIdentities.of(KeyType.SECP256K1).publicKey();
    assertTrue(Dialect.TENTACLE.peerId(k1).toBase58().startsWith("Qm"));
    assertTrue(Dialect.LIBP2P.peerId(k1).toBase58().startsWith("16Uiu2"));
  }
}
