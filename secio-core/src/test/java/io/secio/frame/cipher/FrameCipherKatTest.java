package io.secio.frame.cipher;

import static io.secio.testing.Vectors.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.secio.crypto.CryptoBackend;
import io.secio.crypto.Primitive;
import io.secio.frame.FrameOpener;
import io.secio.frame.FrameSealer;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.testing.TestBackends;
import io.secio.testing.Vectors;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** The frame vectors of secio-kats.json, sealed and opened on every backend, heap and direct. */
class FrameCipherKatTest {

  @TestFactory
  Stream<DynamicTest> ctrHmacFrames() {
    return frames("ctrHmacFrames");
  }

  @TestFactory
  Stream<DynamicTest> aeadFrames() {
    return frames("aeadFrames");
  }

  private Stream<DynamicTest> frames(String section) {
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonElement e : Vectors.kats().getAsJsonArray(section)) {
      JsonObject v = e.getAsJsonObject();
      CipherAlgorithm cipher = CipherAlgorithm.fromWireName(v.get("cipher").getAsString()).orElseThrow();
      HashAlgorithm hash = HashAlgorithm.fromWireName(v.get("hash").getAsString()).orElseThrow();
      for (CryptoBackend backend : TestBackends.offering(Primitive.of(cipher))) {
        for (boolean direct : new boolean[] {false, true}) {
          String name = section + " " + cipher.wireName() + "/" + hash + " on " + backend.name()
              + (direct ? " direct" : " heap");
          tests.add(DynamicTest.dynamicTest(name, () -> check(v, backend, cipher, hash, direct)));
        }
      }
    }
    return tests.stream();
  }

  private static void check(JsonObject v, CryptoBackend backend, CipherAlgorithm cipher,
      HashAlgorithm hash, boolean direct) throws Exception {
    KeyStretcher.StretchedKeys keys = KeyStretcher.stretch(cipher, hash, hex(v, "secret"));
    DirectionKeys k = "k1".equals(v.get("keys").getAsString()) ? keys.k1() : keys.k2();
    FrameSealer sealer = FrameCiphers.sealer(backend, cipher, hash, k);
    FrameOpener opener = FrameCiphers.opener(backend, cipher, hash, k);
    JsonArray plaintexts = v.getAsJsonArray("plaintexts");
    JsonArray bodies = v.getAsJsonArray("bodies");
    for (int i = 0; i < plaintexts.size(); i++) {
      byte[] plaintext = Vectors.hex(plaintexts.get(i));
      byte[] body = Vectors.hex(bodies.get(i));
      ByteBuffer in = buffer(plaintext, direct);
      ByteBuffer out = direct ? ByteBuffer.allocateDirect(body.length) : ByteBuffer.allocate(body.length);
      sealer.seal(in, out);
      assertFalse(in.hasRemaining());
      assertArrayEquals(body, bytes(out.flip()), "frame " + i + " body");
      ByteBuffer opened = direct ? ByteBuffer.allocateDirect(plaintext.length) : ByteBuffer.allocate(plaintext.length);
      opener.open(buffer(body, direct), opened);
      assertArrayEquals(plaintext, bytes(opened.flip()), "frame " + i + " plaintext");
    }
  }

  static ByteBuffer buffer(byte[] bytes, boolean direct) {
    ByteBuffer b = direct ? ByteBuffer.allocateDirect(bytes.length) : ByteBuffer.allocate(bytes.length);
    return b.put(bytes).flip();
  }

  static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.get(out);
    return out;
  }
}
