package io.secio.ckb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.ckb.message.PingMessage;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Ping's rules ({@code docs/CKB.md} §7): every Ping answered with its nonce; our Pings every
 * interval and none while one is outstanding; "ping timeout" when one goes unanswered for the
 * timeout; "ping failed" for a Pong with a wrong nonce, an unasked Pong or an undecodable message.
 * Both roles; time driven.
 */
class PingRulesTest {

  private static Duel pinging(boolean weDial) {
    Duel d = new Duel(weDial, b -> b.ping(Duration.ofSeconds(10), Duration.ofSeconds(30))).identified();
    if (!weDial) {
      d.open(CkbProtocol.PING);
      d.open(CkbProtocol.DISCONNECT_MESSAGE);
      d.open(CkbProtocol.SYNC);
    }
    assertTrue(d.hostile.isOpen(CkbProtocol.PING));
    return d;
  }

  private static PingMessage only(List<byte[]> messages) throws CkbException {
    assertEquals(1, messages.size());
    return PingMessage.decode(messages.get(0));
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void everyPingIsAnsweredWithItsNonce(boolean weDial) throws CkbException {
    try (Duel d = pinging(weDial)) {
      for (long nonce : new long[] {0, 7, 0xFFFF_FFFFL}) {
        d.send(CkbProtocol.PING, PingMessage.ping(nonce).encode());
        assertEquals(PingMessage.pong(nonce), only(d.hostile.take(CkbProtocol.PING)));
      }
      assertTrue(d.ours().isOpen());
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void wePingEveryIntervalAndKeepAPeerThatAnswers(boolean weDial) throws CkbException {
    try (Duel d = pinging(weDial)) {
      d.pair.advance(9);
      assertEquals(List.of(), d.hostile.take(CkbProtocol.PING));
      for (int round = 0; round < 5; round++) {
        d.pair.advance(10);
        PingMessage ping = only(d.hostile.take(CkbProtocol.PING));
        assertFalse(ping.pong());
        d.send(CkbProtocol.PING, PingMessage.pong(ping.nonce()).encode());
      }
      assertTrue(d.ours().isOpen(), "answered for 59 s");
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void anUnansweredPingEndsTheSessionAfterTheTimeout(boolean weDial) throws CkbException {
    try (Duel d = pinging(weDial)) {
      d.pair.advance(10);
      only(d.hostile.take(CkbProtocol.PING));
      d.pair.advance(29);
      assertEquals(List.of(), d.hostile.take(CkbProtocol.PING), "no second Ping while one is outstanding");
      assertTrue(d.ours().isOpen());
      d.pair.advance(1);
      assertFalse(d.ours().isOpen());
      assertEquals(List.of("ping timeout"), d.hostile.goodbyes());
      assertEquals(CkbException.Reason.PING_TIMEOUT, d.cause().reason());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"wrong nonce", "unasked", "undecodable"})
  void aBadPongOrMessageIsPingFailed(String what) throws CkbException {
    for (boolean weDial : new boolean[] {true, false}) {
      try (Duel d = pinging(weDial)) {
        switch (what) {
          case "wrong nonce" -> {
            d.pair.advance(10);
            PingMessage ping = only(d.hostile.take(CkbProtocol.PING));
            d.send(CkbProtocol.PING, PingMessage.pong(ping.nonce() + 1).encode());
          }
          case "unasked" -> d.send(CkbProtocol.PING, PingMessage.pong(1).encode());
          default -> d.send(CkbProtocol.PING, new byte[] {0, 0, 0, 0});
        }
        assertFalse(d.ours().isOpen(), d + ": " + what);
        assertEquals(List.of("ping failed"), d.hostile.goodbyes(), d + ": " + what);
        assertFalse(d.cause().isBan());
      }
    }
  }

  @Test
  void theDefaultsAreCkbs() {
    CkbConfig c = CkbConfig.builder(CkbNetwork.MAINNET).build();
    assertEquals(Duration.ofSeconds(120), c.pingInterval());
    assertEquals(Duration.ofSeconds(1200), c.pingTimeout());
  }
}
