package io.secio.ckb.header;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.secio.ckb.CkbNetwork;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HeaderListVerifierTest {
  private static final List<Header> HEADERS = Vectors.testnetHeaders();
  private static final HeaderListVerifier TESTNET = new HeaderListVerifier(Consensus.of(CkbNetwork.TESTNET),
      Clock.fixed(Instant.ofEpochMilli(HEADERS.get(4).timestamp()), ZoneOffset.UTC));

  @Test
  void theTestnetHeadersFromGenesisOrFromAnyOne() throws HeaderException {
    assertEquals(5, TESTNET.verify(HEADERS));
    assertEquals(3, TESTNET.verify(HEADERS.subList(2, 5)));
    assertEquals(0, TESTNET.verify(List.of()));
  }

  @Test
  void theFirstBadHeaderIsNamed() {
    List<Header> headers = new ArrayList<>(HEADERS);
    headers.set(3, headers.get(3).toBuilder().nonce(BigInteger.ONE).build());
    HeaderException e = assertThrows(HeaderException.class, () -> TESTNET.verify(headers));
    assertEquals(HeaderRule.POW, e.rule());
    assertEquals(3, e.number());
    assertEquals(headers.get(3).hash(), e.hash());
    List<Header> noGenesis = new ArrayList<>(HEADERS);
    noGenesis.set(0, HEADERS.get(0).toBuilder().timestamp(1).build());
    assertEquals(HeaderRule.GENESIS, assertThrows(HeaderException.class, () -> TESTNET.verify(noGenesis)).rule());
    List<Header> unordered = List.of(HEADERS.get(1), HEADERS.get(3));
    assertEquals(HeaderRule.PARENT, assertThrows(HeaderException.class, () -> TESTNET.verify(unordered)).rule());
  }
}
