package io.secio.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.crypto.CryptoBackend;
import io.secio.crypto.Ed25519KeySpecs;
import io.secio.crypto.Primitive;
import io.secio.testing.Hex;
import io.secio.testing.TestBackends;
import java.security.InvalidKeyException;
import java.util.Random;
import org.bouncycastle.math.ec.rfc8032.Ed25519;
import org.junit.jupiter.api.Test;

/**
 * The bounded cache of Ed25519 keys that passed the check: only such keys enter, the least
 * recently used leaves first past the bound, and a remembered key still checks signatures like a
 * fresh one. Which keys pass at all is {@link Ed25519KeyValidationTest}'s and Wycheproof's business.
 */
class ValidatedEd25519KeysTest {
  /** y = 1: the neutral element, of order 1. */
  private static final byte[] SMALL_ORDER =
      Hex.decode("0100000000000000000000000000000000000000000000000000000000000000");
  /** y = p + 1: the neutral element again, in an encoding that is not canonical. */
  private static final byte[] NOT_CANONICAL =
      Hex.decode("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f");

  private final Random random = new Random(25519);

  @Test
  void aKeyThatPassesIsRememberedAndItsPointReturnedAgain() {
    ValidatedEd25519Keys cache = new ValidatedEd25519Keys(4);
    byte[] key = freshKey();

    Ed25519.PublicPoint first = cache.validate(key);
    Ed25519.PublicPoint second = cache.validate(key.clone());

    assertNotNull(first);
    assertSame(first, second);
    assertEquals(1, cache.size());
    assertTrue(cache.contains(key));
  }

  @Test
  void aRefusedKeyIsNeverRememberedAndIsRefusedEveryTime() {
    ValidatedEd25519Keys cache = new ValidatedEd25519Keys(4);
    for (int i = 0; i < 3; i++) {
      assertNull(cache.validate(SMALL_ORDER));
      assertNull(cache.validate(NOT_CANONICAL));
    }
    assertEquals(0, cache.size());
    assertFalse(cache.contains(SMALL_ORDER));
    assertFalse(cache.contains(NOT_CANONICAL));
  }

  @Test
  void theCallerChangingItsArrayLaterChangesNothingRemembered() {
    ValidatedEd25519Keys cache = new ValidatedEd25519Keys(4);
    byte[] key = freshKey();
    byte[] original = key.clone();
    assertNotNull(cache.validate(key));

    System.arraycopy(SMALL_ORDER, 0, key, 0, key.length);

    assertNull(cache.validate(key), "the small-order key now in the caller's array");
    assertTrue(cache.contains(original));
    assertEquals(1, cache.size());
  }

  @Test
  void pastItsBoundTheLeastRecentlyUsedKeyLeavesFirst() {
    ValidatedEd25519Keys cache = new ValidatedEd25519Keys(3);
    byte[] a = freshKey();
    byte[] b = freshKey();
    byte[] c = freshKey();
    byte[] d = freshKey();
    byte[] e = freshKey();
    cache.validate(a);
    cache.validate(b);
    cache.validate(c);
    cache.validate(a); // a is now the most recently used, b the least

    cache.validate(d);

    assertEquals(3, cache.size());
    assertFalse(cache.contains(b));
    assertTrue(cache.contains(a) && cache.contains(c) && cache.contains(d));

    cache.validate(e);

    assertEquals(3, cache.size());
    assertFalse(cache.contains(c));
    assertTrue(cache.contains(a) && cache.contains(d) && cache.contains(e));
  }

  @Test
  void manyMoreKeysThanTheBoundKeepItAtTheBound() {
    ValidatedEd25519Keys cache = new ValidatedEd25519Keys(16);
    for (int i = 0; i < 200; i++) {
      assertNotNull(cache.validate(freshKey()));
      assertTrue(cache.size() <= 16);
    }
    assertEquals(16, cache.size());
  }

  @Test
  void aBoundOfZeroRemembersNothingAndStillChecks() {
    ValidatedEd25519Keys cache = new ValidatedEd25519Keys(0);
    byte[] key = freshKey();

    assertNotNull(cache.validate(key));
    assertNull(cache.validate(SMALL_ORDER));
    assertEquals(0, cache.size());
    assertThrows(IllegalArgumentException.class, () -> new ValidatedEd25519Keys(-1));
  }

  /** A remembered key accepts its owner's signatures and nothing else, on every engine. */
  @Test
  void aRememberedKeyChecksSignaturesLikeAFreshOne() throws Exception {
    for (CryptoBackend engine : TestBackends.offering(Primitive.ED25519)) {
      ValidatedEd25519Keys cache = new ValidatedEd25519Keys(4);
      Ed25519Identity scheme = new Ed25519Identity(cache);
      byte[] seed = new byte[32];
      random.nextBytes(seed);
      byte[] pub = new byte[32];
      Ed25519.generatePublicKey(seed, 0, pub, 0);
      byte[] message = new byte[400];
      random.nextBytes(message);
      byte[] signature = engine.newSigner(Primitive.ED25519, new Ed25519KeySpecs.Private(seed, pub))
          .sign(message);
      byte[] tampered = signature.clone();
      tampered[10] ^= 0x04;

      for (int i = 0; i < 2; i++) { // the first time checked in full, the second from the cache
        KeyScheme.Verifier verifier = scheme.publicKey(pub);
        assertTrue(verifier.verify(engine, message, signature), engine.name());
        assertFalse(verifier.verify(engine, message, tampered), engine.name());
        assertFalse(verifier.verify(engine, new byte[400], signature), engine.name());
      }
      assertTrue(cache.contains(pub));
      assertThrows(InvalidKeyException.class, () -> scheme.publicKey(SMALL_ORDER));
      assertEquals(1, cache.size());
    }
  }

  private byte[] freshKey() {
    byte[] seed = new byte[32];
    random.nextBytes(seed);
    byte[] pub = new byte[32];
    Ed25519.generatePublicKey(seed, 0, pub, 0);
    return pub;
  }
}
