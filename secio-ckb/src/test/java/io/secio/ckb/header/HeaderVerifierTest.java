package io.secio.ckb.header;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.ckb.CkbNetwork;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** The real testnet headers 0..4 verify; each kind of tampering is refused with its rule. */
class HeaderVerifierTest {
  private static final List<Header> HEADERS = Vectors.testnetHeaders();
  private static final long NOW = HEADERS.get(4).timestamp() + 60_000;
  private static final HeaderVerifier TESTNET =
      new HeaderVerifier(Consensus.of(CkbNetwork.TESTNET), Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC));

  /** Verifies headers 1..4 each after its parent, with the median over what came before. */
  @Test
  void theRealTestnetHeadersVerify() throws HeaderException {
    TESTNET.verifyGenesis(HEADERS.get(0));
    MedianTimeWindow window = MedianTimeWindow.of(HEADERS.get(0).timestamp());
    for (int i = 1; i < HEADERS.size(); i++) {
      TESTNET.verify(HEADERS.get(i), HEADERS.get(i - 1), window.median());
      window.push(HEADERS.get(i).timestamp());
    }
  }

  @Test
  void theMainnetRuleRefusesThem() {
    HeaderVerifier mainnet = new HeaderVerifier(Consensus.of(CkbNetwork.MAINNET), Clock.systemUTC());
    for (Header header : HEADERS.subList(1, 5)) {
      assertEquals(HeaderRule.POW, assertThrows(HeaderException.class, () -> mainnet.verifyPow(header)).rule());
    }
    assertEquals(HeaderRule.GENESIS,
        assertThrows(HeaderException.class, () -> mainnet.verifyGenesis(HEADERS.get(0))).rule());
  }

  private static HeaderRule refusal(UnaryOperator<Header.Builder> tamper) {
    Header parent = HEADERS.get(2);
    Header tampered = tamper.apply(HEADERS.get(3).toBuilder()).build();
    long median = MedianTimeWindow.of(HEADERS.get(0).timestamp(), HEADERS.get(1).timestamp(),
        parent.timestamp()).median();
    HeaderException e = assertThrows(HeaderException.class, () -> TESTNET.verify(tampered, parent, median));
    assertEquals(tampered.hash(), e.hash());
    assertEquals(tampered.number(), e.number());
    assertTrue(e.getMessage().startsWith("header #" + Long.toUnsignedString(tampered.number()) + " " + tampered.hash()
        + ": " + e.rule()), e.getMessage());
    return e.rule();
  }

  @Test
  void eachTamperingIsRefusedWithItsRule() {
    Header real = HEADERS.get(3);
    assertEquals(HeaderRule.POW, refusal(b -> b.nonce(real.nonce().add(BigInteger.ONE))));
    assertEquals(HeaderRule.POW, refusal(b -> b.extraHash(Byte32.parse(
        "0x528209acc27f71ca986c2534ed6942cc22acb4dbb47f948e98eecdbf5699e2ac"))));
    assertEquals(HeaderRule.POW, refusal(b -> b.timestamp(real.timestamp() + 1)));
    assertEquals(HeaderRule.PARENT, refusal(b -> b.parentHash(HEADERS.get(1).hash())));
    assertEquals(HeaderRule.NUMBER, refusal(b -> b.number(4)));
    assertEquals(HeaderRule.COMPACT_TARGET_CHANGED, refusal(b -> b.compactTarget(0x1e015556)));
    assertEquals(HeaderRule.EPOCH_NOT_SUCCESSOR, refusal(b -> b.epoch(EpochNumberWithFraction.of(0, 4, 1000))));
    assertEquals(HeaderRule.EPOCH_NOT_SUCCESSOR, refusal(b -> b.epoch(EpochNumberWithFraction.of(0, 3, 999))));
    assertEquals(HeaderRule.EPOCH_NOT_SUCCESSOR, refusal(b -> b.epoch(EpochNumberWithFraction.of(1, 0, 1000))));
    assertEquals(HeaderRule.EPOCH_MALFORMED, refusal(b -> b.epoch(EpochNumberWithFraction.of(0, 3, 3))));
    assertEquals(HeaderRule.VERSION, refusal(b -> b.version(1)));
    assertEquals(HeaderRule.TIMESTAMP_TOO_OLD, refusal(b -> b.timestamp(HEADERS.get(1).timestamp())));
    assertEquals(HeaderRule.TIMESTAMP_TOO_NEW, refusal(b -> b.timestamp(NOW + Consensus.ALLOWED_FUTURE_MILLIS + 1)));
    assertTrue(HeaderRule.TIMESTAMP_TOO_NEW.isTemporary());
  }

  @Test
  void aTimestampUpTo15SecondsAheadIsNotTooNew() {
    // Right at the bound the header fails only its PoW (the timestamp is in the PoW hash).
    assertEquals(HeaderRule.POW, refusal(b -> b.timestamp(NOW + Consensus.ALLOWED_FUTURE_MILLIS)));
  }

  @Test
  void anInvalidCompactTargetIsNamedAsSuch() {
    Header header = HEADERS.get(3).toBuilder().compactTarget(0x21010000).build();
    assertEquals(HeaderRule.COMPACT_TARGET_INVALID,
        assertThrows(HeaderException.class, () -> TESTNET.verifyPow(header)).rule());
    HeaderVerifier dummy = new HeaderVerifier(Consensus.of(CkbNetwork.dev("ckb_dev", new byte[32])), Clock.systemUTC());
    assertEquals(Pow.DUMMY, dummy.consensus().pow());
    assertDoesNotThrow(() -> dummy.verifyPow(header));
  }

  @Test
  void afterACheckpointWithoutItsHeaderLinkageAndPowStillHold() throws HeaderException {
    Header header = HEADERS.get(3);
    TESTNET.verifyAfter(header, HEADERS.get(2).hash(), 2);
    assertEquals(HeaderRule.NUMBER, assertThrows(HeaderException.class,
        () -> TESTNET.verifyAfter(header, HEADERS.get(2).hash(), 3)).rule());
    assertEquals(HeaderRule.POW, assertThrows(HeaderException.class, () -> TESTNET.verifyAfter(
        header.toBuilder().nonce(BigInteger.TEN).build(), HEADERS.get(2).hash(), 2)).rule());
  }

  private static void assertDoesNotThrow(org.junit.jupiter.api.function.Executable executable) {
    org.junit.jupiter.api.Assertions.assertDoesNotThrow(executable);
  }

  @Test
  void theMedianIsCkbs() {
    assertEquals(5, MedianTimeWindow.of(1, 9, 5).median());
    // Even counts take the upper middle, as CKB's timestamps[len >> 1].
    assertEquals(5, MedianTimeWindow.of(9, 1, 5, 3).median());
    MedianTimeWindow window = new MedianTimeWindow();
    for (int t = 1; t <= 100; t++) {
      window.push(t);
    }
    assertEquals(37, window.size());
    assertEquals(82, window.median());
    assertEquals(-1L, MedianTimeWindow.of(-1L).median());
    assertEquals(-2L, MedianTimeWindow.of(1, -1L, -2L).median());
  }
}
