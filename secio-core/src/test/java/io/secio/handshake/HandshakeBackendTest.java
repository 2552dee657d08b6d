package io.secio.handshake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.Backend;
import io.secio.SecioConfig;
import io.secio.crypto.CryptoBackends;
import io.secio.crypto.Primitive;
import io.secio.identity.KeyType;
import io.secio.testing.SpyBackend;
import io.secio.testing.TestBackends;
import io.secio.testing.TestIdentities;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The backend seam: a config's backend serves every primitive of its handshakes, the identity
 * signatures included, and the system property {@value SecioConfig#BACKEND_PROPERTY} only sets the
 * default of {@link SecioConfig.Builder}, read there and nowhere else.
 */
class HandshakeBackendTest {
  private static final Map<KeyType, Primitive> SIGNATURE = Map.of(
      KeyType.ED25519, Primitive.ED25519,
      KeyType.ECDSA, Primitive.ECDSA_P256,
      KeyType.SECP256K1, Primitive.ECDSA_SECP256K1,
      KeyType.RSA, Primitive.RSA_SHA256);

  /** Each side signs once and checks the other's signature once, both on its own config's backend. */
  @ParameterizedTest
  @EnumSource(KeyType.class)
  void signingAndVerifyingGoThroughTheConfigsBackend(KeyType type) {
    SpyBackend spyA = new SpyBackend(CryptoBackends.defaultBackend());
    SpyBackend spyB = new SpyBackend(CryptoBackends.defaultBackend());
    SecioConfig a = SecioConfig.builder(TestIdentities.of(type)).build();
    SecioConfig b = SecioConfig.builder(TestIdentities.other(KeyType.ED25519)).build();

    InMemoryHandshake h =
        new InMemoryHandshake(HandshakeEngine.create(a, spyA), HandshakeEngine.create(b, spyB)).run();

    assertNull(h.failureA);
    assertNull(h.failureB);
    assertEquals(List.of(SIGNATURE.get(type)), spyA.signed());
    assertEquals(List.of(Primitive.ED25519), spyA.verified());
    assertEquals(List.of(Primitive.ED25519), spyB.signed());
    assertEquals(List.of(SIGNATURE.get(type)), spyB.verified());
  }

  /** A handshake pinned to each backend completes, its frames served by that backend. */
  @Test
  void everyNamedBackendCanBePinnedByTheExportedChoice() {
    for (Backend choice : List.of(Backend.CONSCRYPT, Backend.JDK, Backend.BOUNCY_CASTLE)) {
      if (CryptoBackends.named(choice.id()).isEmpty()) {
        continue; // Conscrypt's natives do not load on this platform
      }
      SecioConfig a = SecioConfig.builder(TestIdentities.of(KeyType.ED25519)).backend(choice).build();
      SecioConfig b = SecioConfig.builder(TestIdentities.other(KeyType.ED25519)).backend(choice).build();
      assertSame(choice, a.backend());
      assertSame(CryptoBackends.named(choice.id()).get(), HandshakeEngine.backendOf(a));

      InMemoryHandshake h =
          new InMemoryHandshake(HandshakeEngine.create(a), HandshakeEngine.create(b)).run();

      assertNull(h.failureA, choice.id());
      assertEquals(choice.id(), h.sessionA().cipherBackend());
    }
    assertTrue(TestBackends.all().size() >= 2);
  }

  /** The auto choice is the JVM's one auto backend: its self-tests run once, not per handshake. */
  @Test
  void theAutoChoiceIsTheOneAutoBackendOfTheJvm() {
    SecioConfig auto = SecioConfig.builder(TestIdentities.of(KeyType.ED25519)).backend(Backend.AUTO).build();
    assertSame(CryptoBackends.defaultBackend(), HandshakeEngine.backendOf(auto));
  }

  @Test
  void thePropertySetsTheBuildersDefaultAndAnExplicitChoiceWins() {
    String before = System.getProperty(SecioConfig.BACKEND_PROPERTY);
    try {
      System.setProperty(SecioConfig.BACKEND_PROPERTY, " BouncyCastle ");
      SecioConfig pinned = SecioConfig.builder(TestIdentities.of(KeyType.ED25519)).build();
      assertSame(Backend.BOUNCY_CASTLE, pinned.backend());
      assertEquals("bouncycastle", HandshakeEngine.backendOf(pinned).name());
      assertSame(Backend.JDK,
          SecioConfig.builder(TestIdentities.of(KeyType.ED25519)).backend(Backend.JDK).build().backend());

      System.setProperty(SecioConfig.BACKEND_PROPERTY, "openssl");
      IllegalStateException unknown = assertThrows(IllegalStateException.class,
          () -> SecioConfig.builder(TestIdentities.of(KeyType.ED25519)).build());
      assertTrue(unknown.getMessage().contains(SecioConfig.BACKEND_PROPERTY), unknown.getMessage());

      System.clearProperty(SecioConfig.BACKEND_PROPERTY);
      assertSame(Backend.AUTO, SecioConfig.builder(TestIdentities.of(KeyType.ED25519)).build().backend());
    } finally {
      if (before == null) {
        System.clearProperty(SecioConfig.BACKEND_PROPERTY);
      } else {
        System.setProperty(SecioConfig.BACKEND_PROPERTY, before);
      }
    }
  }

  /** The property's name appears in the main code of every module in exactly one file. */
  @Test
  void onlySecioConfigReadsTheProperty() throws IOException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    List<Path> readers;
    try (Stream<Path> files = Files.walk(root)) {
      readers = files
          .filter(p -> p.toString().endsWith(".java"))
          .filter(p -> p.toString().contains("/src/main/java/"))
          .filter(p -> mentionsTheProperty(p))
          .map(root::relativize)
          .toList();
    }
    assertEquals(List.of(Path.of("secio-core/src/main/java/io/secio/SecioConfig.java")), readers);
  }

  private static boolean mentionsTheProperty(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8).contains("\"secio.backend\"");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
