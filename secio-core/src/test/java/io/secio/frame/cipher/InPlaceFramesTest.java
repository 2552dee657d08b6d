package io.secio.frame.cipher;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.crypto.CryptoBackend;
import io.secio.crypto.Primitive;
import io.secio.frame.FrameOpener;
import io.secio.frame.FrameSealer;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.protocol.SecioException;
import io.secio.testing.TestBackends;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Sealing in place (the body written over the plaintext, from the same first byte) gives exactly the
 * body of sealing into a separate buffer; opening in place (the plaintext written over the body) gives
 * exactly the plaintext of opening into a separate buffer: what {@link FrameSealer} and {@link
 * FrameOpener} promise callers. (secio-netty no longer uses it: Conscrypt copies an overlapping input
 * anyway.) On every backend, heap and direct, over several frames of one stream.
 */
class InPlaceFramesTest {
  private static final int[] SIZES = {1, 1000, 70_000, 16, 200_000, 0, 4097};

  /** One check per cipher, backend offering it, and buffer kind (direct, heap). */
  private interface Check {
    void run(CryptoBackend backend, CipherAlgorithm cipher, boolean direct) throws Exception;
  }

  private static Stream<DynamicTest> everywhere(Check check) {
    List<DynamicTest> tests = new ArrayList<>();
    for (CipherAlgorithm cipher : CipherAlgorithm.values()) {
      for (CryptoBackend backend : TestBackends.offering(Primitive.of(cipher))) {
        for (boolean direct : new boolean[] {true, false}) {
          String name = cipher.wireName() + " " + backend.name() + (direct ? " direct" : " heap");
          tests.add(DynamicTest.dynamicTest(name, () -> check.run(backend, cipher, direct)));
        }
      }
    }
    return tests.stream();
  }

  /** Stretched keys from a secret drawn from {@code random}. */
  private static KeyStretcher.StretchedKeys keys(CipherAlgorithm cipher, Random random) {
    byte[] secret = new byte[32];
    random.nextBytes(secret);
    return KeyStretcher.stretch(cipher, HashAlgorithm.SHA256, secret);
  }

  @TestFactory
  Stream<DynamicTest> inPlaceEqualsSeparate() {
    return everywhere(InPlaceFramesTest::check);
  }

  private static void check(CryptoBackend backend, CipherAlgorithm cipher, boolean direct)
      throws Exception {
    Random random = new Random(cipher.ordinal() * 7L + (direct ? 1 : 2));
    KeyStretcher.StretchedKeys keys = keys(cipher, random);
    FrameSealer separate = FrameCiphers.sealer(backend, cipher, HashAlgorithm.SHA256, keys.k1());
    FrameSealer inPlace = FrameCiphers.sealer(backend, cipher, HashAlgorithm.SHA256, keys.k1());
    FrameOpener opener = FrameCiphers.opener(backend, cipher, HashAlgorithm.SHA256, keys.k1());
    FrameOpener inPlaceOpener = FrameCiphers.opener(backend, cipher, HashAlgorithm.SHA256, keys.k1());
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

      ByteBuffer body = allocate(bodyLength, direct).put(out.duplicate()).flip();
      ByteBuffer opened = allocate(size, direct);
      opener.open(out, opened);
      assertArrayEquals(plaintext, bytes(opened.flip()), size + "-byte frame opens");

      ByteBuffer openedInPlace = body.duplicate().limit(size);
      inPlaceOpener.open(body, openedInPlace);
      assertEquals(bodyLength, body.position(), "in-place open consumes the body");
      assertEquals(size, openedInPlace.position(), "in-place plaintext length");
      assertArrayEquals(plaintext, bytes(openedInPlace.flip()), size + "-byte frame opens in place");
    }
  }

  @TestFactory
  Stream<DynamicTest> inPlaceOpenOfABadBodyLeavesNoPlaintext() {
    return everywhere(InPlaceFramesTest::checkBadBody);
  }

  private static void checkBadBody(CryptoBackend backend, CipherAlgorithm cipher, boolean direct)
      throws Exception {
    Random random = new Random(cipher.ordinal() * 13L + (direct ? 3 : 4));
    KeyStretcher.StretchedKeys keys = keys(cipher, random);
    FrameSealer sealer = FrameCiphers.sealer(backend, cipher, HashAlgorithm.SHA256, keys.k1());
    FrameOpener opener = FrameCiphers.opener(backend, cipher, HashAlgorithm.SHA256, keys.k1());
    byte[] plaintext = new byte[1000];
    random.nextBytes(plaintext);
    ByteBuffer body = allocate(plaintext.length + sealer.overhead(), direct);
    sealer.seal(ByteBuffer.wrap(plaintext), body);
    body.flip();
    int last = body.limit() - 1;
    body.put(last, (byte) (body.get(last) ^ 1)); // the last byte of the MAC or tag
    byte[] tampered = bytes(body);

    SecioException e = assertThrows(SecioException.class,
        () -> opener.open(body, body.duplicate().limit(plaintext.length)));
    assertEquals(SecioException.Reason.AUTHENTICATION_FAILED, e.reason());
    for (int i = 0; i < plaintext.length; i++) {
      byte b = body.get(i);
      // Either untouched (CTR+HMAC checks the MAC first) or wiped (an AEAD that decrypted first).
      assertTrue(b == tampered[i] || b == 0, "byte " + i + " of the failed body was rewritten");
    }
    assertFalse(Arrays.equals(plaintext, 0, 64, bytesAt(body, 0, 64), 0, 64), "plaintext left behind");
  }

  private static byte[] bytesAt(ByteBuffer b, int from, int length) {
    byte[] out = new byte[length];
    b.duplicate().position(from).get(out);
    return out;
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
