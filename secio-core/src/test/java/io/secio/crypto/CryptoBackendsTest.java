package io.secio.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.protocol.SecioException;
import io.secio.testing.Hex;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.Provider;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Where backends come from: names, the system property, and the per-primitive {@code auto} choice. */
class CryptoBackendsTest {
  /** The preference orders the design asks for, written out here independently of the code. */
  private static final Map<Primitive, List<String>> PREFERENCE = new EnumMap<>(Primitive.class);

  static {
    List<String> conscryptFirst = List.of("conscrypt", "jdk", "bouncycastle");
    List<String> jdkFirst = List.of("jdk", "conscrypt", "bouncycastle");
    PREFERENCE.put(Primitive.AES_GCM, conscryptFirst);
    PREFERENCE.put(Primitive.CHACHA20_POLY1305, conscryptFirst);
    PREFERENCE.put(Primitive.AES_CTR, jdkFirst);
    PREFERENCE.put(Primitive.HMAC_SHA256, jdkFirst);
    PREFERENCE.put(Primitive.HMAC_SHA512, jdkFirst);
    PREFERENCE.put(Primitive.ECDH_P256, conscryptFirst);
    PREFERENCE.put(Primitive.ECDH_P384, conscryptFirst);
    PREFERENCE.put(Primitive.ECDH_P521, conscryptFirst);
    PREFERENCE.put(Primitive.X25519, conscryptFirst);
    PREFERENCE.put(Primitive.ED25519, List.of("conscrypt", "bouncycastle", "jdk"));
    PREFERENCE.put(Primitive.ECDSA_P256, conscryptFirst);
    PREFERENCE.put(Primitive.ECDSA_SECP256K1, conscryptFirst);
    PREFERENCE.put(Primitive.RSA_SHA256, jdkFirst);
  }

  /**
   * What a provider without algorithms still offers: secp256k1 signatures are Bouncy Castle's
   * lightweight code on every backend, needing no provider.
   */
  private static boolean needsAProvider(Primitive p) {
    return p != Primitive.ECDSA_SECP256K1;
  }

  @Test
  void namedBackendsLoadOnceAndUnknownNamesAreEmpty() {
    assertTrue(CryptoBackends.named("jdk").isPresent());
    assertTrue(CryptoBackends.named("bouncycastle").isPresent());
    for (String name : List.of("conscrypt", "jdk", "bouncycastle")) {
      Optional<CryptoBackend> b = CryptoBackends.named(name);
      b.ifPresent(backend -> {
        assertEquals(name, backend.name());
        assertSame(backend, CryptoBackends.named(name).get(), "one instance per JVM");
      });
    }
    for (String unknown : new String[] {"nope", "auto", "JDK", "", " jdk", null}) {
      assertEquals(Optional.empty(), CryptoBackends.named(unknown), "named(" + unknown + ")");
    }
  }

  @Test
  void conscryptLoadsWhereTheUberJarShipsNatives() {
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch");
    Assumptions.assumeTrue(os.contains("linux") && List.of("amd64", "x86_64", "aarch64").contains(arch),
        "conscrypt-openjdk-uber ships Linux natives for x86_64 and aarch64 only");
    assertTrue(CryptoBackends.named("conscrypt").isPresent());
    Provider first = JcaProfile.conscryptProvider().orElseThrow();
    assertEquals("Conscrypt", first.getName());
    assertTrue(first != JcaProfile.conscryptProvider().orElseThrow(),
        "a new instance each time");
  }

  @Test
  void theJdkOffersEverythingOnJava17() {
    CryptoBackend jdk = CryptoBackends.named("jdk").orElseThrow();
    for (Primitive p : Primitive.values()) {
      assertTrue(jdk.offers(p), p.toString());
      assertEquals("jdk", jdk.nameFor(p), "a single backend serves every primitive itself");
    }
  }

  /** A config's choice, by its id: auto is the JVM's one auto backend, a name its one backend. */
  @Test
  void aChoiceByIdIsTheSameBackendEveryTime() {
    assertSame(CryptoBackends.defaultBackend(), CryptoBackends.of("auto"));
    assertSame(CryptoBackends.named("jdk").orElseThrow(), CryptoBackends.of("jdk"));
    assertSame(CryptoBackends.named("bouncycastle").orElseThrow(), CryptoBackends.of("bouncycastle"));
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> CryptoBackends.of("openssl"));
    assertTrue(e.getMessage().startsWith("openssl is not a backend"), e.getMessage());
  }

  @Test
  void autoPicksTheFirstPreferredBackendThatOffersEachPrimitive() {
    CryptoBackend auto = CryptoBackends.select("auto", CryptoBackends::named);
    assertEquals("auto", auto.name());
    for (Primitive p : Primitive.values()) {
      String expected = "none";
      for (String name : PREFERENCE.get(p)) {
        Optional<CryptoBackend> b = CryptoBackends.named(name);
        if (b.isPresent() && b.get().offers(p)) {
          expected = name;
          break;
        }
      }
      assertEquals(expected, auto.nameFor(p), p.toString());
      assertEquals(!expected.equals("none"), auto.offers(p));
    }
  }

  @Test
  void autoServesEachPrimitiveFromItsChoice() throws Exception {
    CryptoBackend auto = CryptoBackends.select(null, CryptoBackends::named);
    byte[] key = new byte[16];
    byte[] nonce = new byte[12];
    ByteBuffer sealed = ByteBuffer.allocate(3 + 16);
    auto.newAead(CipherAlgorithm.AES_128_GCM, key).seal(nonce, ByteBuffer.wrap(new byte[3]), sealed);
    ByteBuffer reference = ByteBuffer.allocate(3 + 16);
    CryptoBackends.named("bouncycastle").orElseThrow()
        .newAead(CipherAlgorithm.AES_128_GCM, key).seal(nonce, ByteBuffer.wrap(new byte[3]), reference);
    assertArrayEquals(reference.array(), sealed.array());
    assertEquals(32, auto.newHmac(HashAlgorithm.SHA256, key).doFinal().length);
    assertEquals(16, auto.newCtr(CipherAlgorithm.AES_128_CTR, key, new byte[16]).update(new byte[16]).length);
    assertEquals(32, auto.generateEphemeral(ExchangeAlgorithm.X25519, new SecureRandom()).publicKey().length);
    // RFC 7748 section 6.1: Alice's private key and public key.
    assertArrayEquals(
        Hex.decode("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"),
        auto.ephemeralFromPrivate(ExchangeAlgorithm.X25519, Hex.decode(
            "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")).publicKey());
  }

  @Test
  void autoFallsBackPastABackendWhoseSelfTestsFail() throws Exception {
    CryptoBackend broken = new JcaBackend(emptyProfile());
    CryptoBackend jdk = CryptoBackends.named("jdk").orElseThrow();
    CryptoBackend auto = CompositeBackend.choose(Map.of("conscrypt", broken, "jdk", jdk));
    for (Primitive p : Primitive.values()) {
      assertEquals(!needsAProvider(p), broken.offers(p), p + " offered without passing its self-test");
      assertEquals(needsAProvider(p) ? "jdk" : broken.name(), auto.nameFor(p), p.toString());
    }
    assertUnavailable(() -> broken.newHmac(HashAlgorithm.SHA256, new byte[32]));
    assertUnavailable(() -> broken.newAead(CipherAlgorithm.CHACHA20_POLY1305, new byte[32]));
    assertUnavailable(() -> broken.newCtr(CipherAlgorithm.AES_256_CTR, new byte[32], new byte[16]));
    assertUnavailable(() -> broken.generateEphemeral(ExchangeAlgorithm.P_256, new SecureRandom()));
    assertUnavailable(() -> broken.ephemeralFromPrivate(ExchangeAlgorithm.X25519, new byte[32]));
  }

  @Test
  void onlyTheBackendWithholdsWhatFailedItsSelfTest() {
    // The raw primitives offer everything (that is why they never leave this package); the backend
    // over them offers only what passed, which on a provider without algorithms is nothing.
    JcaPrimitives raw = new JcaPrimitives(emptyProfile());
    JcaBackend checked = new JcaBackend(emptyProfile());
    for (Primitive p : Primitive.values()) {
      assertTrue(raw.offers(p), p.toString());
      assertEquals(!needsAProvider(p), checked.offers(p), p.toString());
    }
  }

  @Test
  void autoLoadsABackendOnlyWhenAPrimitiveReachesIt() throws Exception {
    CryptoBackend broken = new JcaBackend(emptyProfile());
    CryptoBackend jdk = CryptoBackends.named("jdk").orElseThrow();
    List<String> asked = new ArrayList<>();
    CryptoBackend auto = CryptoBackends.auto(name -> {
      asked.add(name);
      return Optional.of(name.equals("conscrypt") ? broken : jdk);
    });
    assertEquals(List.of(), asked, "nothing is loaded before a primitive is asked for");

    assertEquals(32, auto.newHmac(HashAlgorithm.SHA256, new byte[32]).doFinal().length);
    assertEquals(List.of("jdk"), asked, "HMAC prefers the JDK, which offers it");

    assertEquals("jdk", auto.nameFor(Primitive.AES_GCM));
    assertEquals("jdk", auto.nameFor(Primitive.AES_GCM));
    assertEquals(List.of("jdk", "conscrypt", "jdk"), asked,
        "AES-GCM tries Conscrypt (failing its self-test) then the JDK, once; never Bouncy Castle");
  }

  @Test
  void withNoBackendEveryPrimitiveIsUnavailable() {
    CryptoBackend none = CompositeBackend.choose(Map.of());
    for (Primitive p : Primitive.values()) {
      assertFalse(none.offers(p));
      assertEquals("none", none.nameFor(p));
    }
    assertUnavailable(() -> none.newAead(CipherAlgorithm.AES_256_GCM, new byte[32]));
    assertUnavailable(() -> none.newCtr(CipherAlgorithm.AES_128_CTR, new byte[16], new byte[16]));
    assertUnavailable(() -> none.newHmac(HashAlgorithm.SHA512, new byte[64]));
    assertUnavailable(() -> none.generateEphemeral(ExchangeAlgorithm.P_384, new SecureRandom()));
    assertUnavailable(() -> none.ephemeralFromPrivate(ExchangeAlgorithm.P_521, new byte[66]));
  }

  @Test
  void thePropertyPinsOneBackend() {
    assertSame(CryptoBackends.named("jdk").get(), CryptoBackends.select("jdk", CryptoBackends::named));
    assertSame(CryptoBackends.named("bouncycastle").get(),
        CryptoBackends.select(" BouncyCastle ", CryptoBackends::named));
    for (String auto : new String[] {null, "", " ", "auto", "AUTO"}) {
      assertEquals("auto", CryptoBackends.select(auto, CryptoBackends::named).name());
    }
    IllegalStateException unknown = assertThrows(IllegalStateException.class,
        () -> CryptoBackends.select("openssl", CryptoBackends::named));
    assertTrue(unknown.getMessage().contains("is not a backend"), unknown.getMessage());
    for (String known : new String[] {"conscrypt", "jdk", "bouncycastle"}) {
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> CryptoBackends.select(known, name -> Optional.empty()));
      assertTrue(e.getMessage().contains("does not load"), known + ": " + e.getMessage());
    }
    IllegalStateException missing = assertThrows(IllegalStateException.class,
        () -> CryptoBackends.select("conscrypt", name -> Optional.empty()));
    assertTrue(missing.getMessage().contains("does not load"), missing.getMessage());
  }

  @Test
  void theDefaultIsAutoUnlessPinned() {
    Assumptions.assumeTrue(System.getProperty(io.secio.SecioConfig.BACKEND_PROPERTY) == null,
        "this JVM pins a backend with -Dsecio.backend");
    CryptoBackend d = CryptoBackends.defaultBackend();
    assertEquals("auto", d.name());
    assertSame(d, CryptoBackends.defaultBackend(), "a singleton");
  }

  /** A profile on a provider that has no algorithms at all: every self-test fails. */
  static JcaProfile emptyProfile() {
    Provider empty = new Provider("Empty", "1", "no algorithms") {
      private static final long serialVersionUID = 1L;
    };
    return new JcaProfile("empty", empty, "ChaCha20-Poly1305", "XDH", false, true);
  }

  private static void assertUnavailable(Executable call) {
    SecioException e = assertThrows(SecioException.class, call);
    assertEquals(SecioException.Reason.UNAVAILABLE, e.reason());
    assertTrue(e instanceof GeneralSecurityException);
  }
}
