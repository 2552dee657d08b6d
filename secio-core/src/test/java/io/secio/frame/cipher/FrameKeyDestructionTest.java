package io.secio.frame.cipher;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.crypto.AeadCipher;
import io.secio.crypto.CryptoBackend;
import io.secio.crypto.Primitive;
import io.secio.frame.FrameOpener;
import io.secio.frame.FrameSealer;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.protocol.SecioException;
import io.secio.testing.SpyBackend;
import io.secio.testing.TestBackends;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The real sealers and openers of every cipher and backend: once destroyed they refuse to work and
 * hold no key material; the AEAD they held is destroyed (its own test shows its key array zeroed), and
 * the CTR cipher and HMAC they held were re-keyed with zero keys before being dropped, and the
 * arrays the CTR+HMAC pair kept its last MACs in are zero.
 */
class FrameKeyDestructionTest {
  /** AES-128 of a zero block under a zero key: the first keystream block after the zero re-key. */
  private static final byte[] ZERO_KEY_ZERO_BLOCK =
      HexFormat.of().parseHex("66e94bd4ef8a2c3b884cfa59ca342b2e");

  @TestFactory
  Stream<DynamicTest> destroyedSealersAndOpenersHoldNoKeys() {
    List<DynamicTest> tests = new ArrayList<>();
    for (CipherAlgorithm cipher : CipherAlgorithm.values()) {
      for (CryptoBackend backend : TestBackends.offering(Primitive.of(cipher))) {
        tests.add(DynamicTest.dynamicTest(cipher.wireName() + " on " + backend.name(),
            () -> check(backend, cipher, HashAlgorithm.SHA256)));
      }
    }
    return tests.stream();
  }

  private static void check(CryptoBackend backend, CipherAlgorithm cipher, HashAlgorithm hash)
      throws Exception {
    byte[] secret = new byte[32];
    new Random(7).nextBytes(secret);
    KeyStretcher.StretchedKeys keys = KeyStretcher.stretch(cipher, hash, secret);
    FrameSealer sealer = FrameCiphers.sealer(backend, cipher, hash, keys.k1());
    FrameOpener opener = FrameCiphers.opener(backend, cipher, hash, keys.k1());
    byte[] frame = sealer.seal(new byte[] {1, 2, 3});
    assertArrayEquals(new byte[] {1, 2, 3}, opener.open(frame));
    // AEAD: the one cipher object; CTR+HMAC: the Cipher and the Mac.
    int objects = cipher.isAead() ? 1 : 2;
    assertEquals(objects, holders(sealer).size(), "sealer holds");
    assertEquals(objects, holders(opener).size(), "opener holds");
    List<Object> held = new ArrayList<>(holders(sealer));
    held.addAll(holders(opener));
    List<byte[]> macs = macBuffers(sealer, opener);
    for (byte[] m : macs) {
      assertFalse(SpyBackend.isZero(m), "the last MAC is in its buffer");
    }

    sealer.destroy();
    opener.destroy();

    for (byte[] m : macs) {
      assertTrue(SpyBackend.isZero(m), "MAC buffer zeroed");
    }

    assertTrue(holders(sealer).isEmpty(), "sealer dropped its cipher objects");
    assertTrue(holders(opener).isEmpty(), "opener dropped its cipher objects");
    assertThrows(IllegalStateException.class, () -> sealer.seal(new byte[] {4}));
    assertThrows(SecioException.class, () -> opener.open(frame));
    for (Object h : held) {
      if (h instanceof AeadCipher aead) {
        assertThrows(IllegalStateException.class, () -> aead.seal(new byte[12],
            ByteBuffer.wrap(new byte[1]), ByteBuffer.allocate(64)), "AEAD destroyed");
      } else if (h instanceof Cipher ctr) {
        assertArrayEquals(ZERO_KEY_ZERO_BLOCK, ctr.update(new byte[16]), "CTR re-keyed with zeros");
      } else if (h instanceof Mac mac) {
        Mac zero = Mac.getInstance(mac.getAlgorithm());
        zero.init(new SecretKeySpec(new byte[mac.getMacLength()], mac.getAlgorithm()));
        assertArrayEquals(zero.doFinal(), mac.doFinal(), "HMAC re-keyed with zeros");
      }
    }
  }

  /** The MAC arrays of a CTR+HMAC pair (the sealer's, the opener's computed and received), or none. */
  private static List<byte[]> macBuffers(FrameSealer sealer, FrameOpener opener) {
    if (sealer instanceof CtrHmacFrameSealer s && opener instanceof CtrHmacFrameOpener o) {
      List<byte[]> macs = new ArrayList<>(o.macBuffers());
      macs.add(0, s.macBuffer());
      assertEquals(3, macs.size());
      return macs;
    }
    return List.of();
  }

  static List<Object> holders(FrameSealer sealer) {
    return sealer instanceof AeadFrameSealer a ? a.keyHolders() : ((CtrHmacFrameSealer) sealer).keyHolders();
  }

  static List<Object> holders(FrameOpener opener) {
    return opener instanceof AeadFrameOpener a ? a.keyHolders() : ((CtrHmacFrameOpener) opener).keyHolders();
  }
}
