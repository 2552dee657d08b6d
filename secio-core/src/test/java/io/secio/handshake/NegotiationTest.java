package io.secio.handshake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.protocol.SecioException;
import io.secio.testing.Vectors;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class NegotiationTest {
  private static final long SEED = 20261130L;

  @Test
  void orderMatchesTheVectors() {
    for (JsonElement e : Vectors.kats().getAsJsonArray("order")) {
      JsonObject v = e.getAsJsonObject();
      int order = Negotiation.order(Vectors.hex(v, "localPublicKey"), Vectors.hex(v, "localNonce"),
          Vectors.hex(v, "remotePublicKey"), Vectors.hex(v, "remoteNonce"));
      assertEquals(v.get("order").getAsInt(), order);
    }
    JsonObject t = Vectors.transcript();
    assertEquals(t.get("order_fromA").getAsInt(), Negotiation.order(
        Vectors.hex(t.getAsJsonObject("A"), "pub"), Vectors.hex(t.getAsJsonObject("A"), "nonce"),
        Vectors.hex(t.getAsJsonObject("B"), "pub"), Vectors.hex(t.getAsJsonObject("B"), "nonce")));
  }

  @Test
  void orderIsAntisymmetric() {
    Random random = new Random(SEED);
    for (int i = 0; i < 200; i++) {
      byte[] a = bytes(random, 36), b = bytes(random, 36), na = bytes(random, 16), nb = bytes(random, 16);
      assertEquals(-Negotiation.order(a, na, b, nb), Negotiation.order(b, nb, a, na));
    }
  }

  @Test
  void preferredListDecidesAndNamesMatchExactly() throws SecioException {
    Negotiation.Selection s = Negotiation.select(true,
        "P-384,P-256", "AES-128,AES-256", "SHA512,SHA256",
        "P-256,P-384,P-521", "AES-256,AES-128", "SHA256,SHA512");
    assertEquals(ExchangeAlgorithm.P_384, s.exchange());
    assertEquals(CipherAlgorithm.AES_128_CTR, s.cipher());
    assertEquals(HashAlgorithm.SHA512, s.hash());
    // Case-sensitive, exact: "aes-128" is not "AES-128"; unknown names are skipped.
    Negotiation.Selection t = Negotiation.select(false,
        "P-256", "AES-128,AES-256", "SHA256",
        "P-256", "TwofishCTR,aes-128,AES-256", "SHA256");
    assertEquals(CipherAlgorithm.AES_256_CTR, t.cipher());
    // Aliases resolve when both sides use them.
    assertEquals(CipherAlgorithm.AES_128_CTR, Negotiation.select(true,
        "P-256", "AES-128-CTR", "SHA256", "P-256", "AES-128-CTR", "SHA256").cipher());
  }

  @Test
  void nothingInCommonFails() {
    SecioException e = assertThrows(SecioException.class, () -> Negotiation.select(true,
        "P-256", "AES-128-GCM", "SHA256", "P-256", "AES-256", "SHA256"));
    assertEquals(SecioException.Reason.NO_COMMON_ALGORITHMS, e.reason());
    SecioException never = assertThrows(SecioException.class, () -> Negotiation.select(false,
        "P-256", "AES-128", "SHA256", "P-256", "TwofishCTR,BlowfishCTR,NULL", "SHA256"));
    assertEquals(SecioException.Reason.NO_COMMON_ALGORITHMS, never.reason());
  }

  static Stream<Long> seeds() {
    return IntStream.range(0, 300).mapToObj(i -> SEED + i);
  }

  /** Symmetric, and never a name that one side did not offer. */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void selectionIsSymmetricAndOffered(long seed) {
    Random random = new Random(seed);
    List<String> a1 = randomList(random, names(ExchangeAlgorithm.values()));
    List<String> a2 = randomList(random, cipherNames());
    List<String> a3 = randomList(random, names(HashAlgorithm.values()));
    List<String> b1 = randomList(random, names(ExchangeAlgorithm.values()));
    List<String> b2 = randomList(random, cipherNames());
    List<String> b3 = randomList(random, names(HashAlgorithm.values()));
    boolean aPreferred = random.nextBoolean();
    Negotiation.Selection fromA = null, fromB = null;
    SecioException failA = null, failB = null;
    try {
      fromA = Negotiation.select(aPreferred, join(a1), join(a2), join(a3), join(b1), join(b2), join(b3));
    } catch (SecioException e) {
      failA = e;
    }
    try {
      fromB = Negotiation.select(!aPreferred, join(b1), join(b2), join(b3), join(a1), join(a2), join(a3));
    } catch (SecioException e) {
      failB = e;
    }
    String seedInfo = "seed " + seed;
    assertEquals(failA == null, failB == null, seedInfo);
    assertEquals(fromA, fromB, seedInfo);
    if (fromA != null) {
      assertTrue(a1.contains(fromA.exchange().wireName()) && b1.contains(fromA.exchange().wireName()), seedInfo);
      assertTrue(offered(a2, fromA.cipher()) && offered(b2, fromA.cipher()), seedInfo);
      assertTrue(a3.contains(fromA.hash().wireName()) && b3.contains(fromA.hash().wireName()), seedInfo);
    } else {
      assertEquals(SecioException.Reason.NO_COMMON_ALGORITHMS, failA.reason(), seedInfo);
    }
  }

  private static boolean offered(List<String> list, CipherAlgorithm cipher) {
    return list.stream().anyMatch(n -> CipherAlgorithm.fromWireName(n).orElse(null) == cipher);
  }

  private static List<String> cipherNames() {
    List<String> names = new ArrayList<>(names(CipherAlgorithm.values()));
    names.addAll(List.of("AES-128-CTR", "AES-256-CTR", "TwofishCTR", "BlowfishCTR", "NULL"));
    return names;
  }

  private static List<String> names(Enum<?>[] values) {
    List<String> names = new ArrayList<>();
    for (Enum<?> v : values) {
      if (v instanceof ExchangeAlgorithm x) names.add(x.wireName());
      if (v instanceof CipherAlgorithm c) names.add(c.wireName());
      if (v instanceof HashAlgorithm h) names.add(h.wireName());
    }
    return names;
  }

  private static List<String> randomList(Random random, List<String> universe) {
    List<String> copy = new ArrayList<>(universe);
    Collections.shuffle(copy, random);
    return copy.subList(0, 1 + random.nextInt(copy.size()));
  }

  private static String join(List<String> names) {
    return String.join(",", names);
  }

  private static byte[] bytes(Random random, int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }
}
