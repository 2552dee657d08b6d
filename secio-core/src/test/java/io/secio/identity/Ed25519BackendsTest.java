package io.secio.identity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.crypto.CryptoBackend;
import io.secio.crypto.Ed25519KeySpecs;
import io.secio.crypto.Primitive;
import io.secio.identity.EdwardsPoints.Point;
import io.secio.testing.Hex;
import io.secio.testing.TestBackends;
import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;
import org.bouncycastle.math.ec.rfc8032.Ed25519;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ed25519 on every backend that loads here (Conscrypt, the JDK, Bouncy Castle): each makes the RFC
 * 8032 signatures byte for byte, agrees with the others on every key and message, and gives one
 * verdict, the cofactored equation's, on signatures no honest signer makes: under a key with a
 * small-order component, and with an R that has one (docs/PROTOCOL.md section 3.1). Conscrypt
 * (BoringSSL) and the JDK check the cofactorless equation, which refuses most of these; the seam
 * decides what they refuse with the cofactored check.
 */
class Ed25519BackendsTest {
  /** A point of order 8 (one of the eight small-order points; checked below). */
  private static final Point ORDER_EIGHT = EdwardsPoints.decode(
      Hex.decode("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"));
  private static final int SIGNATURES = 24;

  static List<CryptoBackend> backends() {
    return TestBackends.offering(Primitive.ED25519);
  }

  static Stream<Arguments> backendsAndVectors() {
    return backends().stream().flatMap(backend -> Ed25519SigningTest.rfc8032()
        .map(v -> Arguments.of(backend, v.get()[0], v.get()[1], v.get()[2], v.get()[3])));
  }

  @Test
  void everyNamedBackendOffersEd25519() {
    assertEquals(TestBackends.all().size(), backends().size());
    assertTrue(backends().size() >= 2, backends().toString());
  }

  @ParameterizedTest
  @MethodSource("backendsAndVectors")
  void signsAndChecksTheRfc8032Vectors(CryptoBackend backend, String seed, String pub,
      String message, String signature) throws Exception {
    Ed25519Identity scheme = new Ed25519Identity(new ValidatedEd25519Keys(0));
    byte[] privateData = new byte[64];
    System.arraycopy(Hex.decode(seed), 0, privateData, 0, 32);
    System.arraycopy(Hex.decode(pub), 0, privateData, 32, 32);
    KeyScheme.SigningKey key = scheme.privateKey(privateData);

    byte[] made = backend.newSigner(key.signature(), key.privateSpec()).sign(Hex.decode(message));

    assertArrayEquals(Hex.decode(signature), made);
    KeyScheme.Verifier verifier = scheme.publicKey(Hex.decode(pub));
    assertTrue(verifier.verify(backend, Hex.decode(message), made));
    made[0] ^= 0x01;
    assertFalse(verifier.verify(backend, Hex.decode(message), made));
  }

  @Test
  void everyBackendSignsAndChecksLikeEveryOther() throws Exception {
    Random random = new Random(8032);
    for (int length : new int[] {0, 1, 64, 400, 4096}) {
      byte[] seed = new byte[32];
      random.nextBytes(seed);
      byte[] pub = new byte[32];
      Ed25519.generatePublicKey(seed, 0, pub, 0);
      Ed25519KeySpecs.Public key =
          new Ed25519KeySpecs.Public(pub, Ed25519.validatePublicKeyFullExport(pub, 0));
      byte[] message = new byte[length];
      random.nextBytes(message);
      byte[] reference = new byte[64];
      Ed25519.sign(seed, 0, message, 0, message.length, reference, 0);
      for (CryptoBackend signer : backends()) {
        byte[] signature = signer.newSigner(Primitive.ED25519,
            new Ed25519KeySpecs.Private(seed, pub)).sign(message);
        assertArrayEquals(reference, signature, signer + ", message length " + length);
        for (CryptoBackend verifier : backends()) {
          assertTrue(verifier.verify(Primitive.ED25519, key, message, signature),
              verifier + " checks " + signer);
        }
      }
    }
  }

  @Test
  void thePointUsedIsOfOrderEight() {
    assertEquals(EdwardsPoints.IDENTITY, ORDER_EIGHT.times(BigInteger.valueOf(8)));
    assertNotEquals(EdwardsPoints.IDENTITY, ORDER_EIGHT.times(BigInteger.valueOf(4)));
    assertEquals(EdwardsPoints.IDENTITY, EdwardsPoints.BASE.times(EdwardsPoints.L));
  }

  /**
   * A = [a]B + T: the owner of a signs; the cofactorless equation holds only when the hash scalar is
   * a multiple of 8, the cofactored one always. Every backend accepts every such signature, and
   * refuses it with S changed.
   */
  @Test
  void aMixedOrderKeyGetsTheCofactoredVerdictOnEveryBackend() throws Exception {
    SecureRandom random = seeded(20);
    BigInteger a = scalar(random);
    Point publicPoint = EdwardsPoints.BASE.times(a).plus(ORDER_EIGHT);
    byte[] publicKey = publicPoint.encode();
    int cofactorlessHolds = 0;
    for (int i = 0; i < SIGNATURES; i++) {
      byte[] message = ("mixed-order key, message " + i).getBytes();
      BigInteger r = scalar(random);
      Point bigR = EdwardsPoints.BASE.times(r);
      BigInteger k = EdwardsPoints.challenge(bigR.encode(), publicKey, message);
      byte[] signature = EdwardsPoints.signature(bigR, r.add(k.multiply(a)).mod(EdwardsPoints.L));
      if (EdwardsPoints.cofactorless(publicKey, message, signature)) {
        cofactorlessHolds++;
      }
      assertOneVerdict(publicKey, message, signature, true);
      assertOneVerdict(publicKey, message, withSPlusOne(signature), false);
    }
    assertTrue(cofactorlessHolds < SIGNATURES,
        "no signature where the two equations differ: the test would prove nothing");
  }

  /** A prime-order key, R = [r]B + T: the cofactorless equation never holds, the cofactored always. */
  @Test
  void aSmallOrderComponentInRGetsTheCofactoredVerdictOnEveryBackend() throws Exception {
    SecureRandom random = seeded(21);
    BigInteger a = scalar(random);
    byte[] publicKey = EdwardsPoints.BASE.times(a).encode();
    for (int i = 0; i < SIGNATURES; i++) {
      byte[] message = ("small-order R, message " + i).getBytes();
      BigInteger r = scalar(random);
      Point bigR = EdwardsPoints.BASE.times(r).plus(ORDER_EIGHT);
      BigInteger k = EdwardsPoints.challenge(bigR.encode(), publicKey, message);
      byte[] signature = EdwardsPoints.signature(bigR, r.add(k.multiply(a)).mod(EdwardsPoints.L));
      assertFalse(EdwardsPoints.cofactorless(publicKey, message, signature));
      assertOneVerdict(publicKey, message, signature, true);
      assertOneVerdict(publicKey, message, withSPlusOne(signature), false);
    }
  }

  @Test
  void theSignerShowsNoSecret() throws Exception {
    byte[] seed = new byte[32];
    seed[0] = 0x5a;
    byte[] pub = new byte[32];
    Ed25519.generatePublicKey(seed, 0, pub, 0);
    for (CryptoBackend backend : backends()) {
      String shown = backend.newSigner(Primitive.ED25519, new Ed25519KeySpecs.Private(seed, pub))
          .toString();
      assertFalse(shown.toLowerCase(Locale.ROOT).contains("5a00"), shown);
      assertTrue(shown.contains(backend.name()), shown);
    }
  }

  /** Through the identity layer as a handshake checks: key validation, then the backend. */
  private static void assertOneVerdict(byte[] publicKey, byte[] message, byte[] signature,
      boolean expected) throws Exception {
    KeyScheme.Verifier verifier = new Ed25519Identity(new ValidatedEd25519Keys(0)).publicKey(publicKey);
    for (CryptoBackend backend : backends()) {
      assertEquals(expected, verifier.verify(backend, message, signature), backend.name());
    }
  }

  private static byte[] withSPlusOne(byte[] signature) {
    byte[] out = signature.clone();
    BigInteger s = EdwardsPoints.fromLittleEndian(java.util.Arrays.copyOfRange(out, 32, 64));
    System.arraycopy(EdwardsPoints.littleEndian(s.add(BigInteger.ONE).mod(EdwardsPoints.L)), 0,
        out, 32, 32);
    return out;
  }

  private static BigInteger scalar(SecureRandom random) {
    return new BigInteger(300, random).mod(EdwardsPoints.L);
  }

  private static SecureRandom seeded(long seed) throws Exception {
    SecureRandom random = SecureRandom.getInstance("SHA1PRNG");
    random.setSeed(seed);
    return random;
  }
}
