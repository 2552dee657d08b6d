package io.secio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.secio.frame.FrameOpener;
import io.secio.frame.FrameSealer;
import io.secio.handshake.HandshakeEngine;
import io.secio.identity.IdentityPublicKey;
import io.secio.identity.KeyType;
import io.secio.internal.SessionCiphers;
import io.secio.testing.TestIdentities;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Test;

/**
 * A session's public surface is its negotiated outcome: no public method hands out the live sealer or
 * opener, which only the transport reaches through {@link SessionCiphers}.
 */
class SessionSurfaceTest {

  @Test
  void noPublicMethodReturnsALiveCipher() {
    for (Method m : SecioSession.class.getMethods()) {
      boolean cipher = FrameSealer.class.isAssignableFrom(m.getReturnType())
          || FrameOpener.class.isAssignableFrom(m.getReturnType());
      assertEquals(false, cipher && Modifier.isPublic(m.getModifiers()), m.toString());
    }
    assertEquals(0, SecioSession.class.getConstructors().length, "a public constructor takes ciphers");
  }

  @Test
  void theTransportReachesTheCiphersAndDestroyEndsThem() throws Exception {
    SecioSession[] s = handshake(
        SecioConfig.builder(TestIdentities.of(KeyType.ED25519)).build(),
        SecioConfig.builder(TestIdentities.other(KeyType.ED25519)).build());
    byte[] hello = {1, 2, 3};
    assertArrayEquals(hello,
        SessionCiphers.opener(s[1]).open(SessionCiphers.sealer(s[0]).seal(hello)));
    s[0].destroy();
    assertThrows(IllegalStateException.class, () -> SessionCiphers.sealer(s[0]).seal(hello));
    assertThrows(IllegalStateException.class,
        () -> SessionCiphers.register(new SessionCiphers.Access() {
          @Override
          public FrameSealer sealer(SecioSession session) {
            return null;
          }

          @Override
          public FrameOpener opener(SecioSession session) {
            return null;
          }

          @Override
          public SecioSession newSession(Dialect dialect, PeerId localPeerId,
              IdentityPublicKey remotePublicKey, ExchangeAlgorithm exchange, CipherAlgorithm cipher,
              HashAlgorithm hash, boolean localPreferred, String cipherBackend, FrameSealer sealer,
              FrameOpener opener) {
            return null;
          }
        }));
  }

  private static SecioSession[] handshake(SecioConfig a, SecioConfig b) throws SecioException {
    HandshakeEngine ea = HandshakeEngine.create(a);
    HandshakeEngine eb = HandshakeEngine.create(b);
    Deque<byte[]> toA = new ArrayDeque<>(eb.start());
    Deque<byte[]> toB = new ArrayDeque<>(ea.start());
    while (!toA.isEmpty() || !toB.isEmpty()) {
      while (!toA.isEmpty() && !ea.isComplete()) {
        toB.addAll(ea.receive(toA.poll()));
      }
      while (!toB.isEmpty() && !eb.isComplete()) {
        toA.addAll(eb.receive(toB.poll()));
      }
      if (ea.isComplete() && eb.isComplete()) {
        break;
      }
    }
    return new SecioSession[] {ea.session(), eb.session()};
  }
}
