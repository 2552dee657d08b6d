package io.secio.handshake;

import io.secio.SecioSession;
import io.secio.frame.CipherPair;
import io.secio.protocol.SecioException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Runs two engines against each other in memory, both sending at once as over a real connection, and
 * records every payload each side sent.
 */
final class InMemoryHandshake {
  final HandshakeEngine a;
  final HandshakeEngine b;
  final List<byte[]> sentByA = new ArrayList<>();
  final List<byte[]> sentByB = new ArrayList<>();
  SecioException failureA;
  SecioException failureB;
  private CipherPair ciphersA;
  private CipherPair ciphersB;

  InMemoryHandshake(HandshakeEngine a, HandshakeEngine b) {
    this.a = a;
    this.b = b;
  }

  /** Runs to the end; returns this. Failures are recorded, not thrown. */
  InMemoryHandshake run() {
    Deque<byte[]> toB = new ArrayDeque<>(a.start());
    Deque<byte[]> toA = new ArrayDeque<>(b.start());
    sentByA.addAll(toB);
    sentByB.addAll(toA);
    while (!toA.isEmpty() || !toB.isEmpty()) {
      if (!toA.isEmpty() && failureA == null && !a.isComplete()) {
        try {
          List<byte[]> out = a.receive(toA.poll());
          sentByA.addAll(out);
          toB.addAll(out);
        } catch (SecioException e) {
          failureA = e;
          toA.clear();
        }
      } else {
        toA.clear();
      }
      if (!toB.isEmpty() && failureB == null && !b.isComplete()) {
        try {
          List<byte[]> out = b.receive(toB.poll());
          sentByB.addAll(out);
          toA.addAll(out);
        } catch (SecioException e) {
          failureB = e;
          toB.clear();
        }
      } else {
        toB.clear();
      }
    }
    return this;
  }

  SecioSession sessionA() {
    return a.session();
  }

  SecioSession sessionB() {
    return b.session();
  }

  /** A's frame ciphers, split from its engine on the first call. */
  CipherPair ciphersA() {
    if (ciphersA == null) {
      ciphersA = a.split();
    }
    return ciphersA;
  }

  /** B's frame ciphers, split from its engine on the first call. */
  CipherPair ciphersB() {
    if (ciphersB == null) {
      ciphersB = b.split();
    }
    return ciphersB;
  }
}
