package io.secio.netty.hostile;

import static io.secio.netty.hostile.HostileConfigs.READ_TIMEOUT;
import static io.secio.netty.hostile.HostileConfigs.WAIT_SECONDS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.protocol.SecioException.Reason;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A man in the middle who cannot forge frames can still replay, reorder or drop whole ones. With
 * AEAD (v0.2) each of these fails the tag, because the nonce is a per-direction counter. With
 * CTR+HMAC (v0.1) the MAC covers the ciphertext only, so each passes the MAC and decrypts under the
 * wrong stretch of keystream: the application receives garbage and the connection stays up. That is
 * v0.1 by design (docs/PROTOCOL.md section 16); these tests pin down what happens, and docs/HOSTILE.md says it.
 */
class ReplayReorderDropTest {
  private static final byte[] A = ascii("frame A: pay 10 to alice");
  private static final byte[] B = ascii("frame B: pay 20 to bob..");
  private static final byte[] C = ascii("frame C: pay 30 to carol");

  /** An established session with a listener; frames A, B, C sealed in that order, not yet sent. */
  private static final class Session implements AutoCloseable {
    final Listener listener = Listener.start(HostileConfigs.node().build());
    final RawPeer wire = RawPeer.dial(listener.address(), READ_TIMEOUT);
    final Connection conn = listener.next(WAIT_SECONDS);
    final byte[] a;
    final byte[] b;
    final byte[] c;

    Session(String cipher) throws Exception {
      try {
        PeerOnWire peer = PeerOnWire.proposing(wire, cipher).handshake();
        a = peer.sealedFrame(A);
        b = peer.sealedFrame(B);
        c = peer.sealedFrame(C);
      } catch (Exception | AssertionError e) {
        close();
        throw e;
      }
    }

    @Override
    public void close() throws Exception {
      wire.close();
      listener.close();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"AES-128-GCM", "AES-256-GCM", "CHACHA20_POLY1305"})
  void aeadDetectsAReplay(String cipher) throws Exception {
    try (Session s = new Session(cipher)) {
      long sent = System.nanoTime();
      s.wire.writeRaw(Crafted.concat(s.a, s.a, s.b));
      Outcomes.assertFrameRefused(s.conn, Reason.AUTHENTICATION_FAILED, A, sent);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"AES-128-GCM", "AES-256-GCM", "CHACHA20_POLY1305"})
  void aeadDetectsAReorder(String cipher) throws Exception {
    try (Session s = new Session(cipher)) {
      long sent = System.nanoTime();
      s.wire.writeRaw(Crafted.concat(s.b, s.a, s.c));
      Outcomes.assertFrameRefused(s.conn, Reason.AUTHENTICATION_FAILED, new byte[0], sent);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"AES-128-GCM", "AES-256-GCM", "CHACHA20_POLY1305"})
  void aeadDetectsADrop(String cipher) throws Exception {
    try (Session s = new Session(cipher)) {
      long sent = System.nanoTime();
      s.wire.writeRaw(Crafted.concat(s.a, s.c));
      Outcomes.assertFrameRefused(s.conn, Reason.AUTHENTICATION_FAILED, A, sent);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"AES-128", "AES-256"})
  void ctrHmacCannotDetectAReplayAndDeliversGarbage(String cipher) throws Exception {
    try (Session s = new Session(cipher)) {
      s.wire.writeRaw(Crafted.concat(s.a, s.a, s.b));
      byte[] got = undetected(s, 3 * A.length);
      assertArrayEquals(A, part(got, 0), "the first, honest copy");
      assertGarbage(A, part(got, 1), "the replayed copy decrypts under the next keystream");
      assertGarbage(B, part(got, 2), "and the stream stays out of step after it");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"AES-128", "AES-256"})
  void ctrHmacCannotDetectAReorderAndDeliversGarbage(String cipher) throws Exception {
    try (Session s = new Session(cipher)) {
      s.wire.writeRaw(Crafted.concat(s.b, s.a, s.c));
      byte[] got = undetected(s, 3 * A.length);
      assertGarbage(B, part(got, 0), "B decrypted where A was expected");
      assertGarbage(A, part(got, 1), "A decrypted where B was expected");
      // Equal lengths: after the swap the keystream is back in step, and C arrives intact.
      assertArrayEquals(C, part(got, 2));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"AES-128", "AES-256"})
  void ctrHmacCannotDetectADropAndDeliversGarbage(String cipher) throws Exception {
    try (Session s = new Session(cipher)) {
      s.wire.writeRaw(Crafted.concat(s.a, s.c));
      byte[] got = undetected(s, 2 * A.length);
      assertArrayEquals(A, part(got, 0));
      assertGarbage(C, part(got, 1), "C decrypted with B's keystream");
    }
  }

  /** Waits for {@code count} bytes and checks that the listener noticed nothing. */
  private static byte[] undetected(Session s, int count) throws Exception {
    assertTrue(s.conn.app.awaitBytes(count, WAIT_SECONDS), "the frames did not all arrive");
    byte[] got = s.conn.app.received();
    assertEquals(count, got.length);
    assertEquals(0, s.conn.app.exceptions().size(), "v0.1 detected it after all: " + s.conn.app.exceptions());
    assertTrue(s.conn.channel.isOpen(), "the connection was closed");
    return got;
  }

  private static byte[] part(byte[] all, int index) {
    return Arrays.copyOfRange(all, index * A.length, (index + 1) * A.length);
  }

  private static void assertGarbage(byte[] plaintext, byte[] got, String what) {
    assertEquals(plaintext.length, got.length);
    assertFalse(Arrays.equals(plaintext, got), what + ": got the plaintext itself");
    for (byte[] known : new byte[][] {A, B, C}) {
      assertFalse(Arrays.equals(known, got), what + ": got a real frame");
    }
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
