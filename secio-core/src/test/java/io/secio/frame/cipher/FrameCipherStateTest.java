package io.secio.frame.cipher;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.crypto.CryptoBackends;
import io.secio.frame.FrameOpener;
import io.secio.frame.FrameSealer;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.protocol.SecioException.Reason;
import io.secio.protocol.SecioException;
import io.secio.testing.SpyBackend;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What a sealer and an opener do at the edges of their life: after a failure or {@code destroy()}
 * nothing more seals or opens, even a frame that would otherwise verify; an empty frame (a body that
 * is exactly the tag) is a frame like any other.
 */
class FrameCipherStateTest {

  private record Pair(FrameSealer sealer, FrameOpener opener) {}

  private static Pair pair(CipherAlgorithm cipher) throws Exception {
    byte[] secret = new byte[32];
    Arrays.fill(secret, (byte) cipher.ordinal());
    KeyStretcher.StretchedKeys keys = KeyStretcher.stretch(cipher, HashAlgorithm.SHA256, secret);
    return new Pair(
        FrameCiphers.sealer(CryptoBackends.defaultBackend(), cipher, HashAlgorithm.SHA256, keys.k1()),
        FrameCiphers.opener(CryptoBackends.defaultBackend(), cipher, HashAlgorithm.SHA256, keys.k1()));
  }

  @ParameterizedTest
  @EnumSource(CipherAlgorithm.class)
  void afterAFailureNotEvenTheFrameThatWouldVerifyNextOpens(CipherAlgorithm cipher) throws Exception {
    Pair p = pair(cipher);
    byte[] f1 = p.sealer().seal(new byte[] {1});
    byte[] f2 = p.sealer().seal(new byte[] {2});
    byte[] bad = f1.clone();
    bad[bad.length - 1] ^= 1;
    assertThrows(SecioException.class, () -> p.opener().open(bad));
    // AEAD spent nonce 1 on the bad frame, so f2 is the one that would verify now; a v0.1 opener checks
    // the MAC before it moves the keystream, so f1 still would.
    byte[] next = cipher.isAead() ? f2 : f1;
    assertEquals(Reason.AUTHENTICATION_FAILED,
        assertThrows(SecioException.class, () -> p.opener().open(next)).reason());
  }

  @ParameterizedTest
  @EnumSource(CipherAlgorithm.class)
  void aTooShortFrameEndsTheOpenerToo(CipherAlgorithm cipher) throws Exception {
    Pair p = pair(cipher);
    byte[] f1 = p.sealer().seal(new byte[] {1});
    byte[] tooShort = new byte[p.opener().overhead() - 1];
    assertEquals(Reason.FRAME_TOO_SHORT,
        assertThrows(SecioException.class, () -> p.opener().open(tooShort)).reason());
    // Neither cipher moved on for the short frame, so f1 would verify now; it does not open.
    assertEquals(Reason.AUTHENTICATION_FAILED,
        assertThrows(SecioException.class, () -> p.opener().open(f1)).reason());
    assertEquals(List.of(), FrameKeyDestructionTest.holders(p.opener()), "destroyed");
  }

  @ParameterizedTest
  @EnumSource(CipherAlgorithm.class)
  void nothingOpensAfterDestroy(CipherAlgorithm cipher) throws Exception {
    Pair p = pair(cipher);
    byte[] f1 = p.sealer().seal(new byte[] {1});
    p.opener().destroy();
    assertThrows(SecioException.class, () -> p.opener().open(f1));
  }

  @ParameterizedTest
  @EnumSource(CipherAlgorithm.class)
  void nothingSealsAfterDestroy(CipherAlgorithm cipher) throws Exception {
    Pair p = pair(cipher);
    p.sealer().seal(new byte[] {1});
    p.sealer().destroy();
    assertThrows(IllegalStateException.class, () -> p.sealer().seal(new byte[] {2}));
  }

  @ParameterizedTest
  @EnumSource(CipherAlgorithm.class)
  void anEmptyFrameIsExactlyTheTagAndOpensToNothing(CipherAlgorithm cipher) throws Exception {
    Pair p = pair(cipher);
    byte[] empty = p.sealer().seal(new byte[0]);
    assertEquals(p.sealer().overhead(), empty.length);
    assertArrayEquals(new byte[0], p.opener().open(empty));
    // and the stream goes on: the empty frame took its nonce or keystream position, no more
    byte[] after = p.sealer().seal(new byte[] {9});
    assertArrayEquals(new byte[] {9}, p.opener().open(after));
  }

  @ParameterizedTest
  @EnumSource(CipherAlgorithm.class)
  void theKeyCopiesHandedToTheBackendAreZeroedOnceItHoldsThem(CipherAlgorithm cipher)
      throws Exception {
    SpyBackend spy = new SpyBackend(CryptoBackends.defaultBackend());
    DirectionKeys keys = KeyStretcher.stretch(cipher, HashAlgorithm.SHA512, new byte[32]).k1();
    FrameSealer sealer = FrameCiphers.sealer(spy, cipher, HashAlgorithm.SHA512, keys);
    FrameCiphers.opener(spy, cipher, HashAlgorithm.SHA512, keys);
    // AEAD: one key each; CTR+HMAC: key, iv and MAC key each.
    assertEquals(cipher.isAead() ? 2 : 6, spy.keyArguments().size());
    for (byte[] copy : spy.keyArguments()) {
      assertTrue(SpyBackend.isZero(copy));
    }
    // The caller's keys are its own to destroy, and the ciphers work.
    assertFalse(SpyBackend.isZero(keys.cipherKey()));
    assertEquals(1 + sealer.overhead(), sealer.seal(new byte[] {1}).length);
  }

  @Test
  void aNonceCounterStartsOnlyFromTwelveBytes() {
    for (int length : new int[] {0, 11, 13}) {
      assertThrows(IllegalArgumentException.class, () -> new NonceCounter(new byte[length]),
          "start of " + length);
    }
  }

  @Test
  void destroyZeroesEveryKeyOfADirection() {
    DirectionKeys keys = new DirectionKeys(filled(16, 1), filled(32, 2), filled(20, 3));
    keys.destroy();
    assertArrayEquals(new byte[16], keys.iv());
    assertArrayEquals(new byte[32], keys.cipherKey());
    assertArrayEquals(new byte[20], keys.macKey());
  }

  @Test
  void directionKeysShowTheKeySizeAndNoKeyByte() {
    DirectionKeys keys = new DirectionKeys(filled(16, 0x11), filled(32, 0x22), filled(20, 0x33));
    String shown = keys.toString();
    assertTrue(shown.startsWith("DirectionKeys{") && shown.contains("32 bytes"), shown);
    for (String secret : new String[] {"1111", "2222", "3333", "17, 17", "34, 34", "51, 51"}) {
      assertFalse(shown.contains(secret), secret);
    }
  }

  private static byte[] filled(int length, int value) {
    byte[] b = new byte[length];
    Arrays.fill(b, (byte) value);
    return b;
  }
}
