package io.secio.consumercheck;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.secio.SecioConfig;
import io.secio.SecioMode;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.netty.Transports;
import io.secio.protocol.CipherAlgorithm;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * secio-netty as a user gets it after excluding Conscrypt and leaving out native epoll (this module's
 * pom does both): every mode and cipher still handshakes and carries bytes, over NIO, on the JDK and
 * Bouncy Castle.
 */
class WithoutOptionalDependenciesTest {
  private static final SecureRandom RANDOM = new SecureRandom();

  @Test
  void conscryptAndEpollAreNotOnTheClassPath() {
    assertThrows(ClassNotFoundException.class, () -> Class.forName("org.conscrypt.Conscrypt"));
    assertThrows(ClassNotFoundException.class, () -> Class.forName("io.netty.channel.epoll.Epoll"));
  }

  @Test
  void bestTransportIsNioWhenEpollIsLeftOut() {
    assertFalse(Transports.EPOLL.isAvailable());
    assertEquals(Transports.NIO, Transports.best());
  }

  static Stream<Arguments> everyModeAndCipher() {
    List<Arguments> args = new ArrayList<>();
    for (SecioMode mode : SecioMode.values()) {
      for (CipherAlgorithm cipher : mode.ciphers()) {
        args.add(Arguments.of(mode, cipher));
      }
    }
    return args.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("everyModeAndCipher")
  void everyCipherWorksWithoutConscrypt(SecioMode mode, CipherAlgorithm cipher) throws Exception {
    SecioConfig server = config(KeyType.ED25519, mode, cipher);
    SecioConfig client = config(KeyType.ED25519, mode, cipher);
    byte[] message = ("over " + cipher).getBytes(StandardCharsets.UTF_8);

    LoopbackEcho.Outcome outcome = LoopbackEcho.run(server, client, message);

    assertEquals(cipher, outcome.session().cipher());
    assertNotEquals("conscrypt", outcome.session().cipherBackend());
    assertArrayEquals(message, outcome.echoed());
  }

  @ParameterizedTest
  @EnumSource(KeyType.class)
  void everyIdentityKeyTypeSignsWithoutConscrypt(KeyType type) throws Exception {
    SecioConfig server = builder(type).build();
    SecioConfig client = builder(type).build();
    byte[] message = type.name().getBytes(StandardCharsets.UTF_8);

    LoopbackEcho.Outcome outcome = LoopbackEcho.run(server, client, message);

    assertEquals(server.localPeerId(), outcome.session().remotePeerId());
    assertArrayEquals(message, outcome.echoed());
  }

  private static SecioConfig config(KeyType type, SecioMode mode, CipherAlgorithm cipher) {
    return builder(type).mode(mode).ciphers(List.of(cipher)).build();
  }

  private static SecioConfig.Builder builder(KeyType type) {
    return SecioConfig.builder(IdentityKeyPair.generate(type, RANDOM))
        .handshakeTimeout(LoopbackEcho.HANDSHAKE_GUARD);
  }
}
