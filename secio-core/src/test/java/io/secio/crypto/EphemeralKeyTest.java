package io.secio.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.SecioException;
import io.secio.testing.Hex;
import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.math.ec.ECCurve;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Ephemeral keys on every backend: the peer-key checks of docs/PROTOCOL.md section 7 (which run before any key
 * agreement and so must hold on every backend alike), fixed-length secrets, agreement across
 * backends, and the life cycle of a key.
 */
class EphemeralKeyTest {
  private static final ExchangeAlgorithm[] NIST =
      {ExchangeAlgorithm.P_256, ExchangeAlgorithm.P_384, ExchangeAlgorithm.P_521};
  private static final String[] CURVE_NAMES = {"secp256r1", "secp384r1", "secp521r1"};

  @TestFactory
  Stream<DynamicTest> nistPeerKeysAreValidated() {
    List<DynamicTest> tests = new ArrayList<>();
    for (int c = 0; c < NIST.length; c++) {
      ExchangeAlgorithm exchange = NIST[c];
      BigInteger p = CustomNamedCurves.getByName(CURVE_NAMES[c]).getCurve().getField().getCharacteristic();
      for (JcaBackend backend : TestBackends.offering(Primitive.of(exchange))) {
        tests.add(TestBackends.test(backend.name() + " " + exchange.wireName(),
            () -> validation(backend, exchange, p)));
      }
    }
    return tests.stream();
  }

  private static void validation(JcaBackend backend, ExchangeAlgorithm exchange, BigInteger p)
      throws Exception {
    SecureRandom random = seeded(exchange.ordinal());
    EphemeralKeyPair local = backend.generateEphemeral(exchange, random);
    byte[] good = backend.generateEphemeral(exchange, random).publicKey();
    int f = exchange.fieldSizeInBytes();
    assertEquals(1 + 2 * f, good.length);
    assertEquals(f, local.agree(good).length, "the genuine point is accepted");

    refused(local, Arrays.copyOf(good, good.length - 1), "one byte short");
    refused(local, Arrays.copyOf(good, good.length + 1), "one byte long");
    refused(local, new byte[0], "empty");
    refused(local, null, "null");
    byte[] compressed = Arrays.copyOf(good, 1 + f);
    compressed[0] = (byte) (2 + (good[good.length - 1] & 1));
    refused(local, compressed, "compressed form");
    byte[] hybrid = good.clone();
    hybrid[0] = (byte) (6 + (good[good.length - 1] & 1));
    refused(local, hybrid, "hybrid form");
    byte[] offCurve = good.clone();
    offCurve[offCurve.length - 1] ^= 1;
    refused(local, offCurve, "off the curve");
    refused(local, new byte[] {0}, "infinity, SEC1 encoding");
    refused(local, new byte[good.length], "all zero");
    byte[] zeroPoint = new byte[good.length];
    zeroPoint[0] = 4;
    refused(local, zeroPoint, "(0, 0), the usual stand-in for infinity");
    byte[] xIsP = good.clone();
    System.arraycopy(fixed(p, f), 0, xIsP, 1, f);
    refusedBecause(local, xIsP, "x = p", "coordinate not below the field prime");
    byte[] yIsP = good.clone();
    System.arraycopy(fixed(p, f), 0, yIsP, 1 + f, f);
    refusedBecause(local, yIsP, "y = p", "coordinate not below the field prime");
    if (exchange == ExchangeAlgorithm.P_521) {
      // 66 bytes hold 528 bits, so a coordinate plus p (2^521 - 1) still fits: the same point
      // modulo p, which must not be reduced and accepted.
      BigInteger x = new BigInteger(1, Arrays.copyOfRange(good, 1, 1 + f));
      BigInteger y = new BigInteger(1, Arrays.copyOfRange(good, 1 + f, 1 + 2 * f));
      byte[] xPlusP = good.clone();
      System.arraycopy(fixed(x.add(p), f), 0, xPlusP, 1, f);
      refusedBecause(local, xPlusP, "x + p", "coordinate not below the field prime");
      byte[] yPlusP = good.clone();
      System.arraycopy(fixed(y.add(p), f), 0, yPlusP, 1 + f, f);
      refusedBecause(local, yPlusP, "y + p", "coordinate not below the field prime");
    }
  }

  @TestFactory
  Stream<DynamicTest> x25519PeerKeysAreValidated() {
    List<DynamicTest> tests = new ArrayList<>();
    for (JcaBackend backend : TestBackends.offering(Primitive.X25519)) {
      tests.add(TestBackends.test(backend.name(), () -> {
        EphemeralKeyPair local = backend.generateEphemeral(ExchangeAlgorithm.X25519, seeded(25519));
        refused(local, new byte[32], "all-zero point");
        byte[] one = new byte[32];
        one[0] = 1;
        refused(local, one, "u = 1, order 4");
        refused(local, Hex.decode("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800"),
            "a point of order 8");
        refused(local, Hex.decode("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
            "u = p, which is 0");
        refusedBecause(local, new byte[31], "31 bytes", "wrong length for X25519");
        refusedBecause(local, new byte[33], "33 bytes", "wrong length for X25519");
        refused(local, null, "null");
      }));
    }
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> backendsAgreeOnSharedSecrets() {
    List<DynamicTest> tests = new ArrayList<>();
    for (ExchangeAlgorithm exchange : ExchangeAlgorithm.values()) {
      List<JcaBackend> backends = TestBackends.offering(Primitive.of(exchange));
      for (JcaBackend a : backends) {
        for (JcaBackend b : backends) {
          String name = exchange.wireName() + " " + a.name() + " with " + b.name();
          tests.add(TestBackends.test(name, () -> {
            SecureRandom random = seeded(exchange.ordinal() * 31 + 7);
            EphemeralKeyPair alice = a.generateEphemeral(exchange, random);
            EphemeralKeyPair bob = b.generateEphemeral(exchange, random);
            assertEquals(exchange.publicKeySizeInBytes(), alice.publicKey().length);
            byte[] s1 = alice.agree(bob.publicKey());
            byte[] s2 = bob.agree(alice.publicKey());
            assertEquals(exchange.sharedSecretSizeInBytes(), s1.length);
            assertArrayEquals(s1, s2);
          }));
        }
      }
    }
    return tests.stream();
  }

  /**
   * About one secret in 256 starts with a zero byte; go-libp2p-secio strips it and breaks. Search
   * seeded P-256 scalars for such a pair and check that every backend keeps all 32 bytes.
   */
  @TestFactory
  Stream<DynamicTest> leadingZerosAreKept() throws Exception {
    JcaBackend reference = TestBackends.offering(Primitive.ECDH_P256).get(0);
    SecureRandom random = seeded(256);
    byte[] alicePrivate = null;
    byte[] bobPublic = null;
    byte[] expected = null;
    for (int attempt = 0; attempt < 10_000 && expected == null; attempt++) {
      byte[] a = scalar(random);
      EphemeralKeyPair bob = reference.ephemeralFromPrivate(ExchangeAlgorithm.P_256, scalar(random));
      byte[] s = reference.ephemeralFromPrivate(ExchangeAlgorithm.P_256, a).agree(bob.publicKey());
      if (s[0] == 0) {
        alicePrivate = a;
        bobPublic = bob.publicKey();
        expected = s;
      }
    }
    assertTrue(expected != null, "no secret with a leading zero in 10000 seeded tries");
    byte[] priv = alicePrivate;
    byte[] pub = bobPublic;
    byte[] secret = expected;
    List<DynamicTest> tests = new ArrayList<>();
    for (JcaBackend backend : TestBackends.offering(Primitive.ECDH_P256)) {
      tests.add(TestBackends.test(backend.name(), () -> {
        byte[] s = backend.ephemeralFromPrivate(ExchangeAlgorithm.P_256, priv).agree(pub);
        assertEquals(32, s.length);
        assertArrayEquals(secret, s);
      }));
    }
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> lifeCycle() {
    List<DynamicTest> tests = new ArrayList<>();
    for (ExchangeAlgorithm exchange : ExchangeAlgorithm.values()) {
      List<JcaBackend> backends = TestBackends.offering(Primitive.of(exchange));
      for (JcaBackend backend : backends) {
        tests.add(TestBackends.test(backend.name() + " " + exchange.wireName(), () -> {
          // Generators may draw their own randomness (Conscrypt ignores the SecureRandom), so a
          // generated key is checked for what it must be, not compared with the key of a seed.
          SecureRandom random = seeded(99);
          EphemeralKeyPair pair = backend.generateEphemeral(exchange, random);
          assertEquals(exchange, pair.exchange());
          assertWellFormed(exchange, pair.publicKey());
          byte[] next = backend.generateEphemeral(exchange, random).publicKey();
          assertFalse(Arrays.equals(pair.publicKey(), next), "two generations give two keys");
          byte[] leaked = pair.publicKey();
          leaked[1] ^= 1;
          assertFalse(Arrays.equals(leaked, pair.publicKey()), "publicKey() returns a copy");

          JcaBackend other = backends.stream().filter(b -> b != backend).findFirst()
              .orElseThrow(() -> new AssertionError("a second backend to agree with"));
          EphemeralKeyPair peer = other.generateEphemeral(exchange, seeded(100));
          byte[] secret = pair.agree(peer.publicKey());
          assertEquals(exchange.sharedSecretSizeInBytes(), secret.length);
          assertArrayEquals(secret, peer.agree(pair.publicKey()),
              "the same secret on both sides, generated on " + other.name());
          pair.destroy();
          assertThrows(IllegalStateException.class, () -> pair.agree(peer.publicKey()));
          pair.destroy(); // twice is harmless
        }));
      }
    }
    return tests.stream();
  }

  /**
   * docs/PROTOCOL.md's {@code epubkey} (section 7): for a NIST curve {@code 0x04 || X || Y}, coordinates
   * below p and the point on the curve; for X25519 32 bytes holding a canonical u below p.
   */
  private static void assertWellFormed(ExchangeAlgorithm exchange, byte[] key) {
    assertEquals(exchange.publicKeySizeInBytes(), key.length, "length");
    if (exchange == ExchangeAlgorithm.X25519) {
      byte[] bigEndian = new byte[key.length];
      for (int i = 0; i < key.length; i++) {
        bigEndian[i] = key[key.length - 1 - i];
      }
      BigInteger p = BigInteger.ONE.shiftLeft(255).subtract(BigInteger.valueOf(19));
      assertTrue(new BigInteger(1, bigEndian).compareTo(p) < 0, "u below 2^255 - 19");
      return;
    }
    int f = exchange.fieldSizeInBytes();
    ECCurve curve = CustomNamedCurves.getByName(CURVE_NAMES[Arrays.asList(NIST).indexOf(exchange)])
        .getCurve();
    BigInteger p = curve.getField().getCharacteristic();
    BigInteger x = new BigInteger(1, Arrays.copyOfRange(key, 1, 1 + f));
    BigInteger y = new BigInteger(1, Arrays.copyOfRange(key, 1 + f, 1 + 2 * f));
    assertEquals(0x04, key[0], "uncompressed form");
    assertTrue(x.compareTo(p) < 0 && y.compareTo(p) < 0, "coordinates below p");
    assertTrue(curve.createPoint(x, y).isValid(), "on the curve");
  }

  /**
   * Refused by our own check, which says why, rather than by whatever the curve library or the
   * provider happens to throw further on.
   */
  private static void refusedBecause(
      EphemeralKeyPair local, byte[] remote, String what, String why) {
    SecioException e = assertThrows(SecioException.class, () -> local.agree(remote), what);
    assertEquals(SecioException.Reason.BAD_EPHEMERAL_KEY, e.reason(), what);
    assertTrue(e.getMessage().endsWith(": " + why), what + ": " + e.getMessage());
  }

  private static void refused(EphemeralKeyPair local, byte[] remote, String what) {
    SecioException e = assertThrows(SecioException.class, () -> local.agree(remote), what);
    assertEquals(SecioException.Reason.BAD_EPHEMERAL_KEY, e.reason(), what);
  }

  private static byte[] fixed(BigInteger v, int size) {
    byte[] raw = v.toByteArray();
    byte[] out = new byte[size];
    int n = Math.min(raw.length, size);
    System.arraycopy(raw, raw.length - n, out, size - n, n);
    return out;
  }

  private static byte[] scalar(SecureRandom random) {
    byte[] s = new byte[32];
    random.nextBytes(s);
    s[0] &= 0x7f; // below the P-256 order
    s[31] |= 1; // not zero
    return s;
  }

  /** A deterministic SecureRandom: SHA1PRNG seeded before first use produces a fixed stream. */
  static SecureRandom seeded(long seed) throws Exception {
    SecureRandom random = SecureRandom.getInstance("SHA1PRNG");
    random.setSeed(BigInteger.valueOf(seed).toByteArray());
    return random;
  }
}
