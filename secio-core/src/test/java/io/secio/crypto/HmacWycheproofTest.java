package io.secio.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.secio.protocol.HashAlgorithm;
import io.secio.testing.Vectors;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import javax.crypto.Mac;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Project Wycheproof HMAC-SHA256 and HMAC-SHA512 vectors through {@link CryptoBackend#newHmac} on
 * every backend that offers them. Groups with a truncated {@code tagSize} compare that prefix of the
 * full MAC: a valid tag must equal it, an invalid one must not.
 */
class HmacWycheproofTest {

  @TestFactory
  Stream<DynamicTest> hmacSha256() {
    return vectors(HashAlgorithm.SHA256, "hmac_sha256_test.json");
  }

  @TestFactory
  Stream<DynamicTest> hmacSha512() {
    return vectors(HashAlgorithm.SHA512, "hmac_sha512_test.json");
  }

  private static Stream<DynamicTest> vectors(HashAlgorithm hash, String file) {
    JsonObject suite = WycheproofFiles.suite(file);
    List<DynamicTest> tests = new ArrayList<>();
    for (JcaBackend backend : TestBackends.offering(Primitive.of(hash))) {
      for (JsonElement g : suite.getAsJsonArray("testGroups")) {
        JsonObject group = g.getAsJsonObject();
        int tagSizeInBytes = group.get("tagSize").getAsInt() / 8;
        for (JsonElement t : group.getAsJsonArray("tests")) {
          JsonObject test = t.getAsJsonObject();
          String name = backend.name() + " tcId " + test.get("tcId").getAsInt() + " ("
              + test.get("result").getAsString() + " " + test.get("flags") + ")";
          tests.add(TestBackends.test(name, () -> {
            Mac mac = backend.newHmac(hash, Vectors.hex(test, "key"));
            byte[] full = mac.doFinal(Vectors.hex(test, "msg"));
            assertEquals(hash.macSizeInBytes(), full.length);
            boolean matches =
                MessageDigest.isEqual(Arrays.copyOf(full, tagSizeInBytes), Vectors.hex(test, "tag"));
            String result = test.get("result").getAsString();
            if (result.equals("valid")) {
              assertTrue(matches, "valid tag not reproduced");
            } else {
              assertEquals("invalid", result, "MAC vectors are valid or invalid");
              assertFalse(matches, "invalid tag accepted");
            }
          }));
        }
      }
    }
    return tests.stream();
  }
}
