package io.secio;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import org.junit.jupiter.api.Test;

/** An algorithm prints as the wire and the docs spell it, and that name reads back as it. */
class AlgorithmNamesTest {
  @Test
  void everyAlgorithmPrintsItsWireName() {
    for (CipherAlgorithm c : CipherAlgorithm.values()) {
      assertEquals(c.wireName(), c.toString());
      assertEquals(c, CipherAlgorithm.fromWireName(c.toString()).orElseThrow());
    }
    for (ExchangeAlgorithm e : ExchangeAlgorithm.values()) {
      assertEquals(e.wireName(), e.toString());
      assertEquals(e, ExchangeAlgorithm.fromWireName(e.toString()).orElseThrow());
    }
    for (HashAlgorithm h : HashAlgorithm.values()) {
      assertEquals(h.wireName(), h.toString());
      assertEquals(h, HashAlgorithm.fromWireName(h.toString()).orElseThrow());
    }
    assertEquals("AES-128-GCM", String.valueOf(CipherAlgorithm.AES_128_GCM));
    assertEquals("[P-256, X25519]", java.util.List.of(ExchangeAlgorithm.P_256, ExchangeAlgorithm.X25519).toString());
  }
}
