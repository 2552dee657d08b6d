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
 * Project Wycheproof X25519 vectors through {@link CryptoBackend#ephemeralFromPrivate} and {@link
 * EphemeralKeyPair#agree} on every backend that offers X25519.
 *
 * <ul>
 *   <li>{@code valid}: the shared secret must be exactly {@code shared}.
 *   <li>{@code acceptable} with {@code ZeroSharedSecret} or {@code LowOrderPublic} (low-order public
 *       keys, including the non-canonical encodings of 0 and 1; every one gives an all-zero secret):
 *       refused with BAD_EPHEMERAL_KEY, because docs/PROTOCOL.md section 7 rejects an all-zero X25519 secret.
 *   <li>{@code acceptable} otherwise ({@code Twist}, {@code NonCanonicalPublic}, {@code
 *       SpecialPublicKey}, {@code EdgeCaseMultiplication}, {@code EdgeCaseShared}, {@code Ktv},
 *       {@code SmallPublicKey}): accepted with exactly {@code shared}. RFC 7748 defines X25519 on any
 *       32-byte string (section 5: mask the top bit, treat u >= p as u mod p; twist points are valid
 *       inputs), and docs/PROTOCOL.md asks for nothing stricter than the zero check.
 *   <li>{@code invalid} (none in this file today): refused with BAD_EPHEMERAL_KEY.
 * </ul>
 * An acceptable vector with a flag not named here fails until someone decides what it means.
 */
class X25519WycheproofTest {
  private static final Set<String> REFUSED_FLAGS = Set.of("ZeroSharedSecret", "LowOrderPublic");
  private static final Set<String> ACCEPTED_FLAGS = Set.of("Twist", "NonCanonicalPublic",
      "SpecialPublicKey", "EdgeCaseMultiplication", "EdgeCaseShared", "Ktv", "SmallPublicKey");

  @TestFactory
  Stream<DynamicTest> x25519() {
    JsonObject suite = WycheproofFiles.suite("x25519_test.json");
    List<DynamicTest> tests = new ArrayList<>();
    for (JcaBackend backend : TestBackends.offering(Primitive.X25519)) {
      for (JsonElement g : suite.getAsJsonArray("testGroups")) {
        for (JsonElement t : g.getAsJsonObject().getAsJsonArray("tests")) {
          JsonObject test = t.getAsJsonObject();
          String name = backend.name() + " tcId " + test.get("tcId").getAsInt() + " ("
              + test.get("result").getAsString() + " " + test.get("flags") + ")";
          tests.add(TestBackends.test(name, () -> run(backend, test)));
        }
      }
    }
    return tests.stream();
  }

  private static void run(JcaBackend backend, JsonObject test) throws Exception {
    EphemeralKeyPair local =
        backend.ephemeralFromPrivate(ExchangeAlgorithm.X25519, Vectors.hex(test, "private"));
    byte[] remote = Vectors.hex(test, "public");
    Set<String> flags = new HashSet<>();
    test.getAsJsonArray("flags").forEach(f -> flags.add(f.getAsString()));
    String result = test.get("result").getAsString();
    boolean accept;
    if (result.equals("valid")) {
      accept = true;
    } else if (result.equals("acceptable")) {
      Set<String> undecided = new HashSet<>(flags);
      undecided.removeAll(REFUSED_FLAGS);
      undecided.removeAll(ACCEPTED_FLAGS);
      assertTrue(undecided.isEmpty(), "no decision yet for acceptable flags " + undecided);
      accept = flags.stream().noneMatch(REFUSED_FLAGS::contains);
    } else {
      assertEquals("invalid", result);
      accept = false;
    }
    if (accept) {
      assertArrayEquals(Vectors.hex(test, "shared"), local.agree(remote));
    } else {
      SecioException e = assertThrows(SecioException.class, () -> local.agree(remote));
      assertEquals(SecioException.Reason.BAD_EPHEMERAL_KEY, e.reason());
    }
  }
}
