package io.secio.frame;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.secio.CipherAlgorithm;
import io.secio.HashAlgorithm;
import io.secio.crypto.CryptoBackend;
import io.secio.crypto.Primitive;
import io.secio.testing.TestBackends;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Sealing in place (the body written over the plaintext, from the same first byte), as secio-netty
 * does for heap or coalesced writes, gives exactly the body of sealing into a separate buffer, on every
 * backend, heap and direct, over several frames of one stream.
 */
class InPlaceSealingTest {
  private static final int[] SIZES = {1, 1000, 70_000, 16};

  @TestFactory
  Stream<DynamicTest> inPlaceEqualsSeparate() {
    List<DynamicTest> tests = new ArrayList<>();
    for (CipherAlgorithm cipher : CipherAlgorithm.values()) {
      for (CryptoBackend backend : TestBackends.offering(Primitive.of(cipher))) {
        for (boolean direct : new boolean[] {true, false}) {
          String name = cipher.wireName() + " " + backend.name() + (direct ? " direct" : " heap");
          tests.add(DynamicTest.dynamicTest(name, () -> check(backend, cipher, direct)));
        }
      }
    }
    return tests.stream();
  }

  private static void check(CryptoBackend backend, CipherAlgorithm cipher, boolean direct)
      throws Exception {
    byte[] secret = new byte[32];
    Random random = new Random(cipher.ordinal() * 7L + (direct ? 1 : 2));
    random.nextBytes(secret);
    KeyStretcher.StretchedKeys keys = KeyStretcher.stretch(cipher, HashAlgorithm.SHA256, secret);
    FrameSealer separate = FrameCiphers.sealer(backend, cipher, HashAlgorithm.SHA256, keys.k1());
    FrameSealer inPlace = FrameCiphers.sealer(backend, cipher, HashAlgorithm.SHA256, keys.k1());
    FrameOpener opener = FrameCiphers.opener(backend, cipher, HashAlgorithm.SHA256, keys.k1());
    for (int size : SIZES) {
      byte[] plaintext = new byte[size];
      random.nextBytes(plaintext);
      int bodyLength = size + separate.overhead();

      ByteBuffer expected = allocate(bodyLength, direct);
      separate.seal(allocate(size, direct).put(plaintext).flip(), expected);
      assertEquals(bodyLength, expected.position(), "separate body length");

      ByteBuffer frame = allocate(bodyLength, direct).put(plaintext).flip();
      ByteBuffer out = frame.duplicate().clear();
      inPlace.seal(frame, out);
      assertEquals(bodyLength, out.position(), "in-place body length");
      assertArrayEquals(bytes(expected.flip()), bytes(out.flip()), size + "-byte frame");

      ByteBuffer opened = allocate(size, direct);
      opener.open(out, opened);
      assertArrayEquals(plaintext, bytes(opened.flip()), size + "-byte frame opens");
    }
  }

  private static ByteBuffer allocate(int size, boolean direct) {
    return direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }
}
