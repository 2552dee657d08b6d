package io.secio.identity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.crypto.CryptoBackends;
import io.secio.testing.Hex;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
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
 * The Ed25519 engines: Conscrypt where its natives load (they do on the platforms CI runs), Bouncy
 * Castle always. Each must make the RFC 8032 signatures byte for byte, agree with the other on every
 * key and message, and stop being used when its self-test fails. (Wycheproof runs through each
 * engine in {@link WycheproofSignatureTest#ed25519OnEveryEngine}.)
 */
class Ed25519EngineTest {
  static Stream<Ed25519Engine> engines() {
    return Ed25519Engine.available().stream();
  }

  static Stream<Arguments> enginesAndVectors() {
    return engines().flatMap(engine -> Ed25519SigningTest.rfc8032()
        .map(v -> Arguments.of(engine, v.get()[0], v.get()[1], v.get()[2], v.get()[3])));
  }

  @Test
  void conscryptComesFirstAndBouncyCastleLast() {
    List<Ed25519Engine> engines = Ed25519Engine.available();

    assertEquals("conscrypt", engines.get(0).name(), "Conscrypt's natives load on this platform");
    assertSame(Ed25519Engine.BOUNCY_CASTLE, engines.get(engines.size() - 1));
    if (System.getProperty(CryptoBackends.BACKEND_PROPERTY) == null) {
      assertEquals("conscrypt", Ed25519Engine.best().name());
    }
  }

  @ParameterizedTest
  @MethodSource("enginesAndVectors")
  void signsAndChecksTheRfc8032Vectors(Ed25519Engine engine, String seed, String pub, String message,
      String signature) throws Exception {
    Ed25519Identity scheme = new Ed25519Identity(engine);
    byte[] privateData = new byte[64];
    System.arraycopy(Hex.decode(seed), 0, privateData, 0, 32);
    System.arraycopy(Hex.decode(pub), 0, privateData, 32, 32);

    byte[] made = scheme.privateKey(privateData).signer().sign(Hex.decode(message));

    assertArrayEquals(Hex.decode(signature), made);
    assertTrue(scheme.publicKey(Hex.decode(pub)).verify(Hex.decode(message), made));
    made[0] ^= 0x01;
    assertFalse(scheme.publicKey(Hex.decode(pub)).verify(Hex.decode(message), made));
  }

  @Test
  void everyEngineSignsAndChecksLikeEveryOther() throws Exception {
    List<Ed25519Engine> engines = Ed25519Engine.available();
    Random random = new Random(8032);
    for (int length : new int[] {0, 1, 64, 400, 4096}) {
      byte[] seed = new byte[32];
      random.nextBytes(seed);
      byte[] pub = new byte[32];
      Ed25519.generatePublicKey(seed, 0, pub, 0);
      Ed25519.PublicPoint point = Ed25519.validatePublicKeyFullExport(pub, 0);
      byte[] message = new byte[length];
      random.nextBytes(message);
      byte[] reference = Ed25519Engine.BOUNCY_CASTLE.signer(seed, pub).sign(message);
      for (Ed25519Engine signer : engines) {
        byte[] signature = signer.signer(seed, pub).sign(message);
        assertArrayEquals(reference, signature, signer + ", message length " + length);
        for (Ed25519Engine verifier : engines) {
          assertTrue(verifier.verify(pub, point, message, signature), verifier + " checks " + signer);
        }
      }
    }
  }

  @Test
  void theSignerShowsNoSecret() throws Exception {
    byte[] seed = new byte[32];
    seed[0] = 0x5a;
    byte[] pub = new byte[32];
    Ed25519.generatePublicKey(seed, 0, pub, 0);
    for (Ed25519Engine engine : Ed25519Engine.available()) {
      String shown = engine.signer(seed, pub).toString();
      assertFalse(shown.toLowerCase(Locale.ROOT).contains("5a00"), shown);
      assertTrue(shown.contains(engine.name()), shown);
    }
  }

  @Test
  void anEngineThatSignsWrongChecksNothingOrThrowsFailsItsSelfTest() {
    assertTrue(Ed25519Engine.passesSelfTest(Ed25519Engine.BOUNCY_CASTLE));
    assertFalse(Ed25519Engine.passesSelfTest(new Broken(Fault.FLIPS_A_BIT)), "wrong signatures");
    assertFalse(Ed25519Engine.passesSelfTest(new Broken(Fault.ACCEPTS_ANYTHING)), "accepts anything");
    assertFalse(Ed25519Engine.passesSelfTest(new Broken(Fault.THROWS)), "throws while signing");
  }

  @Test
  void anEngineSaysWhichItIs() {
    assertEquals("bouncycastle", Ed25519Engine.BOUNCY_CASTLE.name());
    assertEquals("Ed25519 on bouncycastle", Ed25519Engine.BOUNCY_CASTLE.toString());
  }

  private enum Fault { FLIPS_A_BIT, ACCEPTS_ANYTHING, THROWS }

  /** Bouncy Castle with one fault. */
  private static final class Broken extends Ed25519Engine {
    private final Fault fault;

    Broken(Fault fault) {
      this.fault = fault;
    }

    @Override
    String name() {
      return "broken";
    }

    @Override
    KeyScheme.Signer signer(byte[] seed, byte[] publicData) throws InvalidKeyException {
      KeyScheme.Signer real = BOUNCY_CASTLE.signer(seed, publicData);
      return message -> {
        if (fault == Fault.THROWS) {
          throw new IllegalStateException("a provider failing");
        }
        byte[] signature = real.sign(message);
        if (fault == Fault.FLIPS_A_BIT) {
          signature[7] ^= 0x10;
        }
        return signature;
      };
    }

    @Override
    boolean verify(byte[] publicData, Ed25519.PublicPoint point, byte[] message, byte[] signature)
        throws GeneralSecurityException {
      return fault == Fault.ACCEPTS_ANYTHING || BOUNCY_CASTLE.verify(publicData, point, message, signature);
    }
  }
}
