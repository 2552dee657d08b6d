package io.secio.examples.cli;

import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.handshake.HandshakeEngine;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.protocol.SecioException;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.Deque;

/** A real session for handler tests: two handshake engines run to completion in memory. */
final class Sessions {
  private Sessions() {}

  static SecioSession established() throws SecioException {
    SecureRandom random = new SecureRandom();
    HandshakeEngine a = HandshakeEngine.create(
        SecioConfig.builder(IdentityKeyPair.generate(KeyType.ED25519, random)).build());
    HandshakeEngine b = HandshakeEngine.create(
        SecioConfig.builder(IdentityKeyPair.generate(KeyType.ED25519, random)).build());
    Deque<byte[]> toA = new ArrayDeque<>(b.start());
    Deque<byte[]> toB = new ArrayDeque<>(a.start());
    while (!a.isComplete() || !b.isComplete()) {
      if (toA.isEmpty() && toB.isEmpty()) {
        throw new IllegalStateException("handshake stalled");
      }
      while (!toA.isEmpty() && !a.isComplete()) {
        toB.addAll(a.receive(toA.poll()));
      }
      while (!toB.isEmpty() && !b.isComplete()) {
        toA.addAll(b.receive(toB.poll()));
      }
    }
    return a.session();
  }
}
