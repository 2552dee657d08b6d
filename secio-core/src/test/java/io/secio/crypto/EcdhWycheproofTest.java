package io.secio.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.SecioException;
import io.secio.testing.Vectors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Project Wycheproof ECDH vectors with public keys as EC points (the {@code ecpoint} files), through
 * {@link CryptoBackend#ephemeralFromPrivate} and {@link EphemeralKeyPair#agree} on every backend that
 * offers the curve.
 *
 * <ul>
 *   <li>{@code valid}: the shared secret must be exactly {@code shared}, leading zeros included.
 *   <li>{@code invalid}: refused with {@link SecioException.Reason#BAD_EPHEMERAL_KEY}.
 *   <li>{@code acceptable}: the only acceptable vectors in these files are flagged {@code
 *       CompressedPublic}: a valid point in compressed form. Spec section 4 allows only the
 *       uncompressed form of exactly 65/97/133 bytes, so they are refused with BAD_EPHEMERAL_KEY. An
 *       acceptable vector with any other flag fails this test until someone decides what it means.
 * </ul>
 */
class EcdhWycheproofTest {
  private static final Set<String> DECIDED_ACCEPTABLE_FLAGS = Set.of("CompressedPublic", "CompressedPoint");

  @TestFactory
  Stream<DynamicTest> p256() {
    return vectors(ExchangeAlgorithm.P_256, "ecdh_secp256r1_ecpoint_test.json");
  }

  @TestFactory
  Stream<DynamicTest> p384() {
    return vectors(ExchangeAlgorithm.P_384, "ecdh_secp384r1_ecpoint_test.json");
  }

  @TestFactory
  Stream<DynamicTest> p521() {
    return vectors(ExchangeAlgorithm.P_521, "ecdh_secp521r1_ecpoint_test.json");
  }

  private static Stream<DynamicTest> vectors(ExchangeAlgorithm exchange, String file) {
    JsonObject suite = WycheproofFiles.suite(file);
    List<DynamicTest> tests = new ArrayList<>();
    for (JcaBackend backend : TestBackends.offering(Primitive.of(exchange))) {
      for (JsonElement g : suite.getAsJsonArray("testGroups")) {
        for (JsonElement t : g.getAsJsonObject().getAsJsonArray("tests")) {
          JsonObject test = t.getAsJsonObject();
          String name = backend.name() + " tcId " + test.get("tcId").getAsInt() + " ("
              + test.get("result").getAsString() + " " + test.get("flags") + ")";
          tests.add(TestBackends.test(name, () -> run(backend, exchange, test)));
        }
      }
    }
    return tests.stream();
  }

  private static void run(JcaBackend backend, ExchangeAlgorithm exchange, JsonObject test)
      throws Exception {
    EphemeralKeyPair local = backend.ephemeralFromPrivate(exchange, Vectors.hex(test, "private"));
    assertEquals(exchange.publicKeySizeInBytes(), local.publicKey().length);
    byte[] remote = Vectors.hex(test, "public");
    switch (test.get("result").getAsString()) {
      case "valid":
        byte[] shared = local.agree(remote);
        assertEquals(exchange.sharedSecretSizeInBytes(), shared.length);
        assertArrayEquals(Vectors.hex(test, "shared"), shared);
        break;
      case "acceptable":
        Set<String> flags = new HashSet<>();
        test.getAsJsonArray("flags").forEach(f -> flags.add(f.getAsString()));
        assertTrue(DECIDED_ACCEPTABLE_FLAGS.containsAll(flags),
            "no decision yet for acceptable flags " + flags);
        assertRefused(local, remote);
        break;
      default:
        assertEquals("invalid", test.get("result").getAsString());
        assertRefused(local, remote);
        break;
    }
  }

  private static void assertRefused(EphemeralKeyPair local, byte[] remote) {
    SecioException e = assertThrows(SecioException.class, () -> local.agree(remote));
    assertEquals(SecioException.Reason.BAD_EPHEMERAL_KEY, e.reason());
  }
}
