package io.secio.ckb.lightclient;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.ckb.header.Byte32;
import io.secio.ckb.header.ChainGenerator;
import io.secio.ckb.header.Ckbhash;
import io.secio.ckb.header.Header;
import io.secio.ckb.header.HeaderException;
import io.secio.ckb.header.HeaderRule;
import io.secio.ckb.header.Pow;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The subscription's state machine, driven by a clock the test moves. */
class LastStateClientTest {
  private static final ChainGenerator GENERATOR = new ChainGenerator(21, Pow.DUMMY, 100);
  private static final List<Header> CHAIN = GENERATOR.chain(3);

  /** A clock the test sets. */
  private static final class TestClock extends Clock {
    long millis = CHAIN.get(3).timestamp();

    @Override
    public ZoneId getZone() {
      return ZoneId.of("UTC");
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis);
    }
  }

  /** Block {@code n} as a server sends it on a chain whose root is checked from block 1 on. */
  private static byte[] sendLastState(int n, boolean tampered) {
    HeaderDigest root = HeaderDigest.leaf(CHAIN.get(n - 1));
    byte[] extension = root.mmrHash().toBytes();
    Header header = CHAIN.get(n);
    Byte32 extra = Byte32.of(Ckbhash.hash(Byte32.ZERO.toBytes(), Ckbhash.hash(extension)));
    // The chain's PoW rule is Dummy: the header needs no new nonce for its new extra hash.
    Header withExtension = header.toBuilder().extraHash(extra).build();
    if (tampered) {
      extension[0] ^= 1;
    }
    return LightClientCodec.encode(new LightClientMessage.SendLastState(
        new VerifiableHeader(withExtension, Byte32.ZERO, Optional.of(extension), root)));
  }

  @Test
  void subscribesSurfacesNewTipsReAsksAndTimesOut() throws Exception {
    TestClock clock = new TestClock();
    LastStateVerifier verifier = new LastStateVerifier(GENERATOR.consensus(), clock);
    LastStateClient client = new LastStateClient(verifier, clock, Duration.ofSeconds(8), LastStateClient.DEFAULT_TIMEOUT);
    assertArrayEquals(LightClientCodec.encode(new LightClientMessage.GetLastState(true)), client.open());
    assertTrue(client.poll().isEmpty());

    LastStateClient.LastState first = client.onMessage(sendLastState(2, false)).orElseThrow();
    assertEquals(CHAIN.get(2).number(), first.tip().header().number());
    assertEquals(BigInteger.TWO.multiply(BigInteger.valueOf(16)), first.totalDifficulty());
    assertTrue(client.onMessage(sendLastState(2, false)).isEmpty(), "the same tip again is no news");
    clock.millis += 8_000;
    assertTrue(client.poll().isEmpty());
    clock.millis += 1;
    assertTrue(client.poll().isPresent(), "re-asks after 8 s without news");
    assertTrue(client.poll().isEmpty(), "one question at a time");
    assertEquals(3, client.onMessage(sendLastState(3, false)).orElseThrow().tip().header().number());

    assertEquals(HeaderRule.CHAIN_ROOT,
        assertThrows(HeaderException.class, () -> client.onMessage(sendLastState(3, true))).rule());
    assertThrows(LightClientMessageException.class,
        () -> client.onMessage(LightClientCodec.encode(new LightClientMessage.GetLastState(false))));

    clock.millis += 9_000;
    assertTrue(client.poll().isPresent());
    clock.millis += 60_001;
    assertThrows(LightClientMessageException.class, client::poll);
  }
}
