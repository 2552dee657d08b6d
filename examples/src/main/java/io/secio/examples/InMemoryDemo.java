package io.secio.examples;

import io.secio.SecioConfig;
import io.secio.SecioMode;
import io.secio.SecioSession;
import io.secio.frame.CipherPair;
import io.secio.handshake.HandshakeEngine;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.protocol.SecioException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * Two handshake engines talking in memory, no sockets and no Netty: how to drive secio-core yourself.
 * For each pair of modes it prints what was negotiated, then moves one message each way.
 */
public final class InMemoryDemo {
  private InMemoryDemo() {}

  public static void main(String[] args) throws SecioException {
    SecureRandom random = new SecureRandom();
    IdentityKeyPair alice = IdentityKeyPair.generate(KeyType.ED25519, random);
    IdentityKeyPair bob = IdentityKeyPair.generate(KeyType.SECP256K1, random);
    System.out.printf("%-10s %-10s %-8s %-18s %-7s %-7s %s%n",
        "alice", "bob", "exchange", "cipher", "hash", "version", "backend");
    for (SecioMode aliceMode : SecioMode.values()) {
      for (SecioMode bobMode : SecioMode.values()) {
        SecioConfig a = SecioConfig.builder(alice).mode(aliceMode).build();
        SecioConfig b = SecioConfig.builder(bob).mode(bobMode).build();
        String outcome;
        try {
          HandshakeEngine aliceEngine = HandshakeEngine.create(a);
          HandshakeEngine bobEngine = HandshakeEngine.create(b);
          SecioSession s = handshake(aliceEngine, bobEngine)[0];
          // The ciphers belong to the transport that owns the connection, here this loop: it takes
          // them from the engines once and destroys them when it is done.
          CipherPair aliceCiphers = aliceEngine.split();
          CipherPair bobCiphers = bobEngine.split();
          byte[] hello = "hello bob".getBytes(StandardCharsets.UTF_8);
          byte[] received;
          try {
            received = bobCiphers.opener().open(aliceCiphers.sealer().seal(hello));
          } finally {
            aliceCiphers.destroy();
            bobCiphers.destroy();
          }
          outcome = String.format("%-8s %-18s %-7s %-7s %s  (bob read \"%s\")",
              s.exchange().wireName(), s.cipher().wireName(), s.hash().wireName(),
              s.version().label(), s.cipherBackend(), new String(received, StandardCharsets.UTF_8));
        } catch (SecioException e) {
          outcome = "failed: " + e.getMessage();
        }
        System.out.printf("%-10s %-10s %s%n", aliceMode, bobMode, outcome);
      }
    }
  }

  /** Runs both engines to completion, both sending at once as they would on a socket. */
  static SecioSession[] handshake(HandshakeEngine a, HandshakeEngine b) throws SecioException {
    Deque<byte[]> toA = new ArrayDeque<>(b.start());
    Deque<byte[]> toB = new ArrayDeque<>(a.start());
    while (!a.isComplete() || !b.isComplete()) {
      if (toA.isEmpty() && toB.isEmpty()) {
        throw new IllegalStateException("handshake stalled");
      }
      deliver(toA, a, toB);
      deliver(toB, b, toA);
    }
    return new SecioSession[] {a.session(), b.session()};
  }

  private static void deliver(Deque<byte[]> inbox, HandshakeEngine engine, Deque<byte[]> outbox)
      throws SecioException {
    while (!inbox.isEmpty() && !engine.isComplete()) {
      List<byte[]> replies = engine.receive(inbox.poll());
      outbox.addAll(replies);
    }
  }
}
