package io.secio.frame.cipher;

import static io.secio.testing.Vectors.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.testing.Vectors;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

class KeyStretcherTest {

  @TestFactory
  Stream<DynamicTest> everyStretchVector() {
    List<DynamicTest> tests = new ArrayList<>();
    int i = 0;
    for (JsonElement e : Vectors.kats().getAsJsonArray("stretch")) {
      JsonObject v = e.getAsJsonObject();
      HashAlgorithm hash = HashAlgorithm.fromWireName(v.get("hash").getAsString()).orElseThrow();
      byte[] secret = hex(v, "secret");
      String name = "stretch[" + i++ + "] " + (v.has("cipher") ? v.get("cipher").getAsString() : "") + " " + hash;
      tests.add(DynamicTest.dynamicTest(name, () -> {
        if (v.has("first32")) {
          assertArrayEquals(hex(v, "first32"), KeyStretcher.expand(hash, secret, 32));
          return;
        }
        CipherAlgorithm cipher = CipherAlgorithm.fromWireName(v.get("cipher").getAsString()).orElseThrow();
        KeyStretcher.StretchedKeys keys = KeyStretcher.stretch(cipher, hash, secret);
        Vectors.assertKeys(v.getAsJsonObject("k1"), keys.k1());
        Vectors.assertKeys(v.getAsJsonObject("k2"), keys.k2());
      }));
    }
    return tests.stream();
  }

  @org.junit.jupiter.api.Test
  void destroyZeroesKeys() {
    KeyStretcher.StretchedKeys keys =
        KeyStretcher.stretch(CipherAlgorithm.AES_256_CTR, HashAlgorithm.SHA256, new byte[32]);
    keys.destroy();
    assertArrayEquals(new byte[32], keys.k1().cipherKey());
    assertArrayEquals(new byte[20], keys.k2().macKey());
    org.junit.jupiter.api.Assertions.assertFalse(keys.toString().contains(Arrays.toString(new byte[1])));
  }
}
