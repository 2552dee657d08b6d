package io.secio.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.secio.protocol.CipherAlgorithm;
import io.secio.testing.Vectors;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.crypto.Cipher;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The {@code aesCtrStream} known answers of secio-kats.json on every backend that offers AES-CTR,
 * with heap and with direct buffers: five frames from one continuous keystream, the counter carrying
 * out of its low 64 bits, and the counter wrapping from 2^128 - 1 to 0. Each frame is one {@code
 * update} whose output must be complete at once (a frame cannot wait for the next one's bytes).
 * Decryption is the same operation, checked with a second cipher from the same iv.
 */
class AesCtrStreamTest {

  @TestFactory
  Stream<DynamicTest> aesCtrStream() {
    JsonArray vectors = Vectors.kats().getAsJsonArray("aesCtrStream");
    List<DynamicTest> tests = new ArrayList<>();
    for (JcaBackend backend : TestBackends.offering(Primitive.AES_CTR)) {
      for (int i = 0; i < vectors.size(); i++) {
        JsonObject vector = vectors.get(i).getAsJsonObject();
        for (boolean direct : new boolean[] {false, true}) {
          String name = backend.name() + " aesCtrStream[" + i + "] " + (direct ? "direct" : "heap")
              + " (" + vector.get("note").getAsString() + ")";
          tests.add(TestBackends.test(name, () -> run(backend, vector, direct)));
        }
      }
    }
    return tests.stream();
  }

  private static void run(JcaBackend backend, JsonObject vector, boolean direct) throws Exception {
    byte[] key = Vectors.hex(vector, "key");
    byte[] iv = Vectors.hex(vector, "iv");
    CipherAlgorithm cipher =
        key.length == CipherAlgorithm.AES_128_CTR.keySizeInBytes()
            ? CipherAlgorithm.AES_128_CTR
            : CipherAlgorithm.AES_256_CTR;
    Cipher encrypt = backend.newCtr(cipher, key, iv);
    Cipher decrypt = backend.newCtr(cipher, key, iv);
    JsonArray plaintexts = vector.getAsJsonArray("plaintexts");
    JsonArray ciphertexts = vector.getAsJsonArray("ciphertexts");
    assertEquals(plaintexts.size(), ciphertexts.size());
    int frame = 0;
    for (JsonElement p : plaintexts) {
      byte[] plaintext = Vectors.hex(p);
      byte[] expected = Vectors.hex(ciphertexts.get(frame));
      assertArrayEquals(expected, frame(encrypt, plaintext, direct), "encrypt frame " + frame);
      assertArrayEquals(plaintext, frame(decrypt, expected, direct), "decrypt frame " + frame);
      frame++;
    }
  }

  /** One frame through {@code update(ByteBuffer, ByteBuffer)}, all of its output at once. */
  private static byte[] frame(Cipher ctr, byte[] input, boolean direct) throws Exception {
    ByteBuffer in = AeadWycheproofTest.buffer(input, direct);
    ByteBuffer out = AeadWycheproofTest.allocate(input.length, direct);
    assertEquals(input.length, ctr.update(in, out), "bytes out of one update");
    assertEquals(0, in.remaining(), "input consumed");
    return AeadWycheproofTest.contents(out);
  }
}
