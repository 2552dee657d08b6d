package io.secio.netty;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.SecioMode;
import io.secio.SecioObserver;
import io.secio.SecioSession;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.protocol.SecioException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Secio#warmUp}: a handshake rehearsed through the real handlers in memory, for every dialect
 * the config speaks, that leaves the config's own parts alone (its verifier, observer, executor and
 * limiter never see it) and every buffer released (the leak check of every test here).
 */
class WarmUpTest {

  @Test
  void rehearsesWithoutTouchingTheConfigsVerifierObserverExecutorOrLimiter() throws SecioException {
    List<PeerId> verified = new ArrayList<>();
    List<String> observed = new ArrayList<>();
    List<Runnable> delegated = new ArrayList<>();
    SecioConfig config = TestConfigs.server()
        .peerVerifier((peer, key) -> {
          verified.add(peer);
          return false;
        })
        .observer(new SecioObserver() {
          @Override
          public void handshakeSucceeded(SecioSession session, Duration duration) {
            observed.add("succeeded");
          }

          @Override
          public void frameSealed(int plaintextBytes) {
            observed.add("sealed");
          }
        })
        .handshakeExecutor(delegated::add)
        .build();

    Secio.warmUp(config);

    assertEquals(List.of(), verified);
    assertEquals(List.of(), observed);
    assertEquals(List.of(), delegated);
    assertEquals(0, config.handshakeLimiter().active());
  }

  @Test
  void aListenerOfAnyDialectWithASecp256k1KeyRehearsesBothDialects() {
    SecioConfig config = SecioConfig.builder(IdentityKeyPair.generate(KeyType.SECP256K1, new SecureRandom()))
        .anyDialect()
        .build();

    assertDoesNotThrow(() -> Secio.warmUp(config));
  }

  @Test
  void aV01OnlyConfigRehearsesCtrAndHmacFrames() {
    SecioConfig config = TestConfigs.server().mode(SecioMode.V0_1_ONLY).build();

    assertDoesNotThrow(() -> Secio.warmUp(config));
  }

  @Test
  void refusesNoConfig() {
    assertThrows(NullPointerException.class, () -> Secio.warmUp(null));
  }
}
