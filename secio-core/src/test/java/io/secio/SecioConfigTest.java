package io.secio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.identity.KeyType;
import io.secio.testing.TestIdentities;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/** The tunables live in the config, and its handshake limiter is owned per config, not found globally. */
class SecioConfigTest {
  private static SecioConfig.Builder builder() {
    return SecioConfig.builder(TestIdentities.of(KeyType.ED25519));
  }

  @Test
  void defaults() {
    SecioConfig config = builder().build();
    assertEquals(SecioConfig.DEFAULT_MAX_PLAINTEXT_PER_FRAME_IN_BYTES, config.maxPlaintextPerFrame());
    assertEquals(64 * 1024, config.maxPlaintextPerFrame());
    assertEquals(SecioConfig.DEFAULT_MAX_CONCURRENT_HANDSHAKES, config.maxConcurrentHandshakes());
    assertEquals(512, config.handshakeLimiter().maxConcurrentHandshakes());
    assertSame(PeerVerifier.ACCEPT_ALL, config.peerVerifier());
    assertTrue(config.handshakeExecutor().isEmpty(), "inline by default");
  }

  @Test
  void eachConfigOwnsItsLimiterAndConfigsDerivedFromItShareIt() {
    SecioConfig one = builder().maxConcurrentHandshakes(3).build();
    SecioConfig two = builder().maxConcurrentHandshakes(3).build();
    assertNotSame(one.handshakeLimiter(), two.handshakeLimiter());
    assertSame(one.handshakeLimiter(), one.handshakeLimiter());
    PeerId someone = Dialect.LIBP2P.peerId(TestIdentities.other(KeyType.ED25519).publicKey());
    assertSame(one.handshakeLimiter(), one.withExpectedRemotePeer(someone).handshakeLimiter());
    assertSame(one.handshakeLimiter(), one.toBuilder().maxPlaintextPerFrame(1000).build().handshakeLimiter());

    SecioConfig rebounded = one.toBuilder().maxConcurrentHandshakes(7).build();
    assertNotSame(one.handshakeLimiter(), rebounded.handshakeLimiter());
    assertEquals(7, rebounded.maxConcurrentHandshakes());
  }

  @Test
  void aLimiterGivenToTheBuilderIsShared() {
    HandshakeLimiter shared = HandshakeLimiter.of(2);
    SecioConfig a = builder().handshakeLimiter(shared).build();
    SecioConfig b = builder().maxConcurrentHandshakes(9).handshakeLimiter(shared).build();
    assertSame(shared, a.handshakeLimiter());
    assertSame(shared, b.handshakeLimiter());
    assertEquals(2, b.maxConcurrentHandshakes());
  }

  @Test
  void verifierAndExecutorAreKept() {
    PeerVerifier verifier = (peer, key) -> false;
    Executor executor = Runnable::run;
    SecioConfig config = builder().peerVerifier(verifier).handshakeExecutor(executor).maxPlaintextPerFrame(100).build();
    assertSame(verifier, config.peerVerifier());
    assertSame(executor, config.handshakeExecutor().orElseThrow());
    assertEquals(100, config.maxPlaintextPerFrame());
    SecioConfig copy = config.toBuilder().build();
    assertSame(verifier, copy.peerVerifier());
    assertSame(executor, copy.handshakeExecutor().orElseThrow());
    assertEquals(100, copy.maxPlaintextPerFrame());
    assertTrue(builder().handshakeExecutor(executor).handshakeExecutor(null).build().handshakeExecutor().isEmpty());
  }

  @Test
  void badValuesAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> builder().maxPlaintextPerFrame(0));
    assertThrows(IllegalArgumentException.class, () -> builder().maxConcurrentHandshakes(0));
    assertThrows(IllegalArgumentException.class, () -> HandshakeLimiter.of(0));
    assertThrows(NullPointerException.class, () -> builder().peerVerifier(null));
    assertThrows(NullPointerException.class, () -> builder().handshakeLimiter(null));
  }

  @Test
  void thePerSourceShareIsAnEighthUnlessSet() {
    assertEquals(64, builder().build().maxConcurrentHandshakesPerSource());
    assertEquals(1, builder().maxConcurrentHandshakes(7).build().maxConcurrentHandshakesPerSource());
    SecioConfig set = builder().maxConcurrentHandshakes(10).maxConcurrentHandshakesPerSource(4).build();
    assertEquals(4, set.handshakeLimiter().maxPerSource());
    assertEquals(4, set.toBuilder().build().maxConcurrentHandshakesPerSource());
    assertEquals(3, builder().maxConcurrentHandshakesPerSource(5).maxConcurrentHandshakes(3).build()
        .maxConcurrentHandshakesPerSource(), "a share over the whole bound is the whole bound");
    assertThrows(IllegalArgumentException.class, () -> builder().maxConcurrentHandshakesPerSource(0));
  }

  @Test
  void theLocalPeerIdIsInTheDialectsForm() {
    var secp256k1 = TestIdentities.of(KeyType.SECP256K1);
    PeerId tentacle = Dialect.TENTACLE.peerId(secp256k1.publicKey());
    PeerId libp2p = Dialect.LIBP2P.peerId(secp256k1.publicKey());
    assertFalse(tentacle.equals(libp2p), "the two forms differ");
    assertEquals(tentacle, SecioConfig.builder(secp256k1).dialect(Dialect.TENTACLE).build().localPeerId(),
        "what a tentacle dialer passes as the expected peer");
    assertEquals(libp2p, SecioConfig.builder(secp256k1).dialect(Dialect.LIBP2P).build().localPeerId());
    assertEquals(libp2p, SecioConfig.builder(secp256k1).anyDialect().build().localPeerId(),
        "a listener of any dialect: libp2p's form");
  }
}
