package io.secio.frame.cipher;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.secio.crypto.CryptoBackends;
import io.secio.frame.FrameOpener;
import io.secio.frame.FrameSealer;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.protocol.SecioException.Reason;
import io.secio.protocol.SecioException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Any flipped bit in a frame body fails authentication; a body shorter than the MAC or tag is too
 * short; AEAD detects replayed, reordered and dropped frames; after a failure nothing more opens.
 */
class FrameTamperTest {
  private static final long SEED = 0x5EC10L;

  private record Pair(FrameSealer sealer, FrameOpener opener) {}

  private static Pair pair(CipherAlgorithm cipher, HashAlgorithm hash) throws Exception {
    byte[] secret = new byte[32];
    new Random(SEED).nextBytes(secret);
    KeyStretcher.StretchedKeys keys = KeyStretcher.stretch(cipher, hash, secret);
    return new Pair(
        FrameCiphers.sealer(CryptoBackends.defaultBackend(), cipher, hash, keys.k1()),
        FrameCiphers.opener(CryptoBackends.defaultBackend(), cipher, hash, keys.k1()));
  }

  private static Stream<DynamicTest> perCipher(String what, CipherCheck check) {
    List<DynamicTest> tests = new ArrayList<>();
    for (CipherAlgorithm cipher : CipherAlgorithm.values()) {
      for (HashAlgorithm hash : HashAlgorithm.values()) {
        tests.add(DynamicTest.dynamicTest(what + " " + cipher.wireName() + "/" + hash,
            () -> check.run(cipher, hash)));
      }
    }
    return tests.stream();
  }

  private interface CipherCheck {
    void run(CipherAlgorithm cipher, HashAlgorithm hash) throws Exception;
  }

  @TestFactory
  Stream<DynamicTest> everyFlippedBitFails() {
    return perCipher("flip", (cipher, hash) -> {
      byte[] plaintext = "seventeen bytes!!".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      byte[] body = pair(cipher, hash).sealer().seal(plaintext);
      for (int bit = 0; bit < body.length * 8; bit++) {
        byte[] tampered = body.clone();
        tampered[bit / 8] ^= (byte) (1 << (bit % 8));
        FrameOpener opener = pair(cipher, hash).opener();
        SecioException e = assertThrows(SecioException.class, () -> opener.open(tampered), "bit " + bit);
        assertEquals(Reason.AUTHENTICATION_FAILED, e.reason());
      }
      assertArrayEquals(plaintext, pair(cipher, hash).opener().open(body));
    });
  }

  @TestFactory
  Stream<DynamicTest> shortBodiesAreTooShort() {
    return perCipher("short", (cipher, hash) -> {
      Pair p = pair(cipher, hash);
      for (int length : new int[] {0, 1, p.opener().overhead() - 1}) {
        FrameOpener opener = pair(cipher, hash).opener();
        SecioException e = assertThrows(SecioException.class, () -> opener.open(new byte[length]));
        assertEquals(Reason.FRAME_TOO_SHORT, e.reason(), "length " + length);
      }
    });
  }

  @TestFactory
  Stream<DynamicTest> nothingOpensAfterAFailure() {
    return perCipher("dead", (cipher, hash) -> {
      Pair p = pair(cipher, hash);
      byte[] good1 = p.sealer().seal(new byte[] {1});
      byte[] good2 = p.sealer().seal(new byte[] {2});
      byte[] bad = good1.clone();
      bad[0] ^= 1;
      assertThrows(SecioException.class, () -> p.opener().open(bad));
      assertThrows(SecioException.class, () -> p.opener().open(good1));
      assertThrows(SecioException.class, () -> p.opener().open(good2));
    });
  }

  @TestFactory
  Stream<DynamicTest> aeadDetectsReplayReorderAndDrop() {
    List<DynamicTest> tests = new ArrayList<>();
    for (CipherAlgorithm cipher : CipherAlgorithm.values()) {
      if (!cipher.isAead()) {
        continue;
      }
      tests.add(DynamicTest.dynamicTest("replay " + cipher.wireName(), () -> {
        Pair p = pair(cipher, HashAlgorithm.SHA256);
        byte[] f1 = p.sealer().seal(new byte[] {1});
        p.opener().open(f1);
        assertEquals(Reason.AUTHENTICATION_FAILED,
            assertThrows(SecioException.class, () -> p.opener().open(f1)).reason());
      }));
      tests.add(DynamicTest.dynamicTest("reorder " + cipher.wireName(), () -> {
        Pair p = pair(cipher, HashAlgorithm.SHA256);
        p.sealer().seal(new byte[] {1});
        byte[] f2 = p.sealer().seal(new byte[] {2});
        assertEquals(Reason.AUTHENTICATION_FAILED,
            assertThrows(SecioException.class, () -> p.opener().open(f2)).reason());
      }));
      tests.add(DynamicTest.dynamicTest("drop " + cipher.wireName(), () -> {
        Pair p = pair(cipher, HashAlgorithm.SHA256);
        byte[] f1 = p.sealer().seal(new byte[] {1});
        p.sealer().seal(new byte[] {2});
        byte[] f3 = p.sealer().seal(new byte[] {3});
        p.opener().open(f1);
        assertEquals(Reason.AUTHENTICATION_FAILED,
            assertThrows(SecioException.class, () -> p.opener().open(f3)).reason());
      }));
    }
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> ctrHmacCannotDetectReplay() {
    // v0.1 by design (docs/PROTOCOL.md section 16): a replayed frame passes the MAC and decrypts to garbage.
    List<DynamicTest> tests = new ArrayList<>();
    for (CipherAlgorithm cipher : List.of(CipherAlgorithm.AES_128_CTR, CipherAlgorithm.AES_256_CTR)) {
      tests.add(DynamicTest.dynamicTest("replay " + cipher.wireName(), () -> {
        Pair p = pair(cipher, HashAlgorithm.SHA256);
        byte[] plaintext = "replayed".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] f1 = p.sealer().seal(plaintext);
        assertArrayEquals(plaintext, p.opener().open(f1));
        byte[] replayed = p.opener().open(f1);
        org.junit.jupiter.api.Assertions.assertFalse(java.util.Arrays.equals(plaintext, replayed));
      }));
    }
    return tests.stream();
  }
}
