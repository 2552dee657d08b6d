package io.secio.netty.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonObject;
import io.secio.SecioSession;
import io.secio.protocol.ExchangeAlgorithm;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Checks a handshake between a Java node and a js peer from both ends, and tallies handshakes and the
 * shared secrets' leading zero bytes (as the js peer reports them) for the test output. Thread-safe.
 */
final class Handshakes {
  private static final AtomicInteger COUNT = new AtomicInteger();
  /** Per exchange: handshakes seen by the js peer, and those whose secret began with a zero byte. */
  private static final Map<String, int[]> SECRETS = new TreeMap<>();

  private Handshakes() {}

  /**
   * Asserts that both ends of one connection agree: the same exchange, cipher and hash, exactly one
   * preferred side, each other's peer ids, and a shared secret of the full field size on the js side.
   */
  static void check(SecioSession java, JsonObject js) {
    String where = "\n java: " + java + " preferred=" + java.isLocalPreferred() + "\n js:   " + js;
    assertEquals(java.exchange().wireName(), js.get("exchange").getAsString(), "exchange" + where);
    assertEquals(java.cipher().wireName(), js.get("cipher").getAsString(), "cipher" + where);
    assertEquals(java.hash().wireName(), js.get("hash").getAsString(), "hash" + where);
    assertEquals(!java.isLocalPreferred(), js.get("localPreferred").getAsBoolean(), "preferred side" + where);
    assertEquals(java.localPeerId().toBase58(), js.get("remotePeer").getAsString(), "js's remote peer" + where);
    assertEquals(java.remotePeerId().toBase58(), js.get("localPeer").getAsString(), "Java's remote peer" + where);
    ExchangeAlgorithm exchange = java.exchange();
    assertEquals(exchange.sharedSecretSizeInBytes(), js.get("secretBytes").getAsInt(), "js secret length" + where);
    boolean leadingZero = js.get("secretLeadingZero").getAsBoolean();
    synchronized (SECRETS) {
      int[] tally = SECRETS.computeIfAbsent(exchange.wireName(), k -> new int[2]);
      tally[0]++;
      tally[1] += leadingZero ? 1 : 0;
    }
    COUNT.incrementAndGet();
  }

  /** Counts a handshake between two Java nodes. */
  static void countJavaOnly() {
    COUNT.incrementAndGet();
  }

  static int count() {
    return COUNT.get();
  }

  /** Leading-zero secrets per exchange, such as {@code P-256 2/700}. */
  static String secretSummary() {
    StringBuilder s = new StringBuilder();
    synchronized (SECRETS) {
      SECRETS.forEach((exchange, tally) -> s.append(s.length() == 0 ? "" : ", ")
          .append(exchange).append(' ').append(tally[1]).append('/').append(tally[0]));
    }
    return s.toString();
  }
}
