package io.secio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.frame.CipherPair;
import io.secio.frame.FrameOpener;
import io.secio.frame.FrameSealer;
import io.secio.handshake.HandshakeEngine;
import io.secio.identity.KeyType;
import io.secio.protocol.SecioException;
import io.secio.testing.TestIdentities;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Test;

/**
 * A session is its negotiated outcome and nothing more: it holds no cipher and cannot destroy one.
 * The engine hands the live ciphers out once, as a {@link CipherPair}, to the transport that owns the
 * connection.
 */
class SessionSurfaceTest {

  @Test
  void aSessionHoldsNoCipherAndHasNoDestroy() {
    for (Method m : SecioSession.class.getMethods()) {
      assertFalse(FrameSealer.class.isAssignableFrom(m.getReturnType())
          || FrameOpener.class.isAssignableFrom(m.getReturnType())
          || CipherPair.class.isAssignableFrom(m.getReturnType()), m.toString());
      assertFalse(m.getName().equals("destroy"), m.toString());
    }
    for (Field f : SecioSession.class.getDeclaredFields()) {
      assertFalse(FrameSealer.class.isAssignableFrom(f.getType())
          || FrameOpener.class.isAssignableFrom(f.getType())
          || CipherPair.class.isAssignableFrom(f.getType()), f.toString());
    }
  }

  @Test
  void theEngineHandsTheCiphersOutOnceAndTheirDestroyEndsThem() throws Exception {
    HandshakeEngine[] e = handshake(
        SecioConfig.builder(TestIdentities.of(KeyType.ED25519)).build(),
        SecioConfig.builder(TestIdentities.other(KeyType.ED25519)).build());
    CipherPair a = e[0].split();
    CipherPair b = e[1].split();
    assertThrows(IllegalStateException.class, e[0]::split);
    byte[] hello = {1, 2, 3};
    assertArrayEquals(hello, b.opener().open(a.sealer().seal(hello)));
    assertArrayEquals(hello, a.opener().open(b.sealer().seal(hello)));
    a.destroy();
    assertTrue(a.isDestroyed());
    assertThrows(IllegalStateException.class, () -> a.sealer().seal(hello));
    // A dead opener refuses every frame (FrameOpener: dead after destroy or any failure).
    assertThrows(SecioException.class, () -> a.opener().open(b.sealer().seal(hello)));
    a.destroy(); // idempotent
    // The sessions are values: equal outcomes from both sides' point of view are not confused.
    assertEquals(e[0].session(), e[0].session());
    assertEquals(e[0].session().remotePeerId(), e[1].session().localPeerId());
  }

  @Test
  void splitBeforeCompletionIsRefused() {
    HandshakeEngine engine = HandshakeEngine.create(
        SecioConfig.builder(TestIdentities.of(KeyType.ED25519)).build());
    engine.start();
    assertThrows(IllegalStateException.class, engine::split);
  }

  private static HandshakeEngine[] handshake(SecioConfig a, SecioConfig b) throws SecioException {
    HandshakeEngine ea = HandshakeEngine.create(a);
    HandshakeEngine eb = HandshakeEngine.create(b);
    Deque<byte[]> toA = new ArrayDeque<>(eb.start());
    Deque<byte[]> toB = new ArrayDeque<>(ea.start());
    while (!ea.isComplete() || !eb.isComplete()) {
      while (!toA.isEmpty() && !ea.isComplete()) {
        toB.addAll(ea.receive(toA.poll()));
      }
      while (!toB.isEmpty() && !eb.isComplete()) {
        toA.addAll(eb.receive(toB.poll()));
      }
    }
    return new HandshakeEngine[] {ea, eb};
  }
}
