package io.secio.frame.cipher;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.crypto.CryptoBackends;
import io.secio.frame.FrameOpener;
import io.secio.frame.FrameSealer;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.protocol.SecioException.Reason;
import io.secio.protocol.SecioException;
import io.secio.testing.FailingBackend;
import io.secio.testing.SpyBackend;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.List;
import javax.crypto.ShortBufferException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A provider that fails inside a seal or an open, or a nonce that runs out, ends that direction: the
 * sealer or opener is destroyed (its cipher objects destroyed and dropped), the failure reaches the
 * caller as it was or as a {@link SecioException}, and nothing seals or opens afterwards, even once
 * the provider works again.
 */
class FrameProviderFailureTest {
  private final FailingBackend failing = new FailingBackend(CryptoBackends.defaultBackend());
  private final SpyBackend spy = new SpyBackend(failing);

  private static DirectionKeys keys(CipherAlgorithm cipher) throws GeneralSecurityException {
    byte[] secret = new byte[32];
    Arrays.fill(secret, (byte) 0x42);
    return KeyStretcher.stretch(cipher, HashAlgorithm.SHA256, secret).k1();
  }

  @ParameterizedTest
  @EnumSource(CipherAlgorithm.class)
  void aSealFailingUncheckedInsideTheProviderEndsTheSealer(CipherAlgorithm cipher)
      throws Exception {
    FrameSealer sealer = FrameCiphers.sealer(spy, cipher, HashAlgorithm.SHA256, keys(cipher));
    RuntimeException boom = new IllegalStateException("token lost");
    failInside(cipher, boom, true);
    assertSame(boom, assertThrows(RuntimeException.class, () -> sealer.seal(new byte[] {1})));
    assertSealerEnded(sealer, cipher);
  }

  @ParameterizedTest
  @EnumSource(CipherAlgorithm.class)
  void aSealFailingCheckedInsideTheProviderIsUnavailableAndEndsTheSealer(CipherAlgorithm cipher)
      throws Exception {
    FrameSealer sealer = FrameCiphers.sealer(spy, cipher, HashAlgorithm.SHA256, keys(cipher));
    GeneralSecurityException boom = new ShortBufferException("token lost");
    failInside(cipher, boom, true);
    SecioException e = assertThrows(SecioException.class, () -> sealer.seal(new byte[] {1}));
    assertEquals(Reason.UNAVAILABLE, e.reason());
    assertSame(boom, e.getCause());
    assertSealerEnded(sealer, cipher);
  }

  @ParameterizedTest
  @EnumSource(CipherAlgorithm.class)
  void anOpenFailingUncheckedInsideTheProviderEndsTheOpener(CipherAlgorithm cipher)
      throws Exception {
    byte[] frame = FrameCiphers.sealer(failing, cipher, HashAlgorithm.SHA256, keys(cipher))
        .seal(new byte[] {1});
    FrameOpener opener = FrameCiphers.opener(spy, cipher, HashAlgorithm.SHA256, keys(cipher));
    RuntimeException boom = new IllegalStateException("token lost");
    failInside(cipher, boom, false);
    assertSame(boom, assertThrows(RuntimeException.class, () -> opener.open(frame)));
    assertOpenerEnded(opener, frame, cipher);
  }

  @ParameterizedTest
  @EnumSource(CipherAlgorithm.class)
  void anOpenFailingCheckedInsideTheProviderEndsTheOpener(CipherAlgorithm cipher) throws Exception {
    byte[] frame = FrameCiphers.sealer(failing, cipher, HashAlgorithm.SHA256, keys(cipher))
        .seal(new byte[] {1});
    FrameOpener opener = FrameCiphers.opener(spy, cipher, HashAlgorithm.SHA256, keys(cipher));
    ShortBufferException boom = new ShortBufferException("token lost");
    failInside(cipher, boom, false);
    SecioException e = assertThrows(SecioException.class, () -> opener.open(frame));
    // An AEAD's checked failure cannot be told from a bad tag; v0.1 checked the MAC first.
    assertEquals(cipher.isAead() ? Reason.AUTHENTICATION_FAILED : Reason.UNAVAILABLE, e.reason());
    assertOpenerEnded(opener, frame, cipher);
  }

  @ParameterizedTest
  @EnumSource(value = CipherAlgorithm.class, names = {"AES_128_GCM", "AES_256_GCM", "CHACHA20_POLY1305"})
  void theLastNonceSealsAndOpensAndThenBothSidesEnd(CipherAlgorithm cipher) throws Exception {
    byte[] nearEnd = new byte[NonceCounter.NONCE_SIZE_IN_BYTES];
    Arrays.fill(nearEnd, (byte) 0xff);
    nearEnd[0] = (byte) 0xfe;
    byte[] key = keys(cipher).cipherKey();
    FrameSealer sealer = new AeadFrameSealer(spy.newAead(cipher, key), new NonceCounter(nearEnd));
    FrameOpener opener = new AeadFrameOpener(spy.newAead(cipher, key), new NonceCounter(nearEnd));
    assertArrayEquals(new byte[] {7}, opener.open(sealer.seal(new byte[] {7})));

    assertEquals(Reason.NONCE_EXHAUSTED,
        assertThrows(SecioException.class, () -> sealer.seal(new byte[] {8})).reason());
    assertEquals(Reason.NONCE_EXHAUSTED,
        assertThrows(SecioException.class, () -> opener.open(new byte[32])).reason());
    assertEquals(List.of(), spy.undestroyed(), "both AEADs destroyed");
    assertEquals(List.of(), ((AeadFrameSealer) sealer).keyHolders());
    assertEquals(List.of(), ((AeadFrameOpener) opener).keyHolders());
  }

  /** Makes the provider throw {@code e} inside the next seal or open of {@code cipher}. */
  private void failInside(CipherAlgorithm cipher, Exception e, boolean sealing) {
    if (!cipher.isAead()) {
      failing.failCtr(e);
    } else if (sealing) {
      failing.failSealing(e);
    } else {
      failing.failOpening(e);
    }
  }

  /** Destroyed, and still refusing once the provider works again. */
  private void assertSealerEnded(FrameSealer sealer, CipherAlgorithm cipher) {
    assertTrue(FrameKeyDestructionTest.holders(sealer).isEmpty(), cipher + ": cipher objects dropped");
    assertEquals(List.of(), spy.undestroyed(), cipher + ": AEAD destroyed");
    failing.stopFailing();
    assertThrows(IllegalStateException.class, () -> sealer.seal(new byte[] {2}), cipher.wireName());
  }

  /** Destroyed, and refusing the very frame that fails no more once the provider works again. */
  private void assertOpenerEnded(FrameOpener opener, byte[] frame, CipherAlgorithm cipher) {
    assertTrue(FrameKeyDestructionTest.holders(opener).isEmpty(), cipher + ": cipher objects dropped");
    assertEquals(List.of(), spy.undestroyed(), cipher + ": AEAD destroyed");
    failing.stopFailing();
    assertEquals(Reason.AUTHENTICATION_FAILED,
        assertThrows(SecioException.class, () -> opener.open(frame), cipher.wireName()).reason());
  }
}
