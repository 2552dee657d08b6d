package io.secio.ckb.chain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.ckb.header.Byte32;
import io.secio.ckb.header.ChainGenerator;
import io.secio.ckb.header.CompactTarget;
import io.secio.ckb.header.Header;
import io.secio.ckb.header.HeaderException;
import io.secio.ckb.header.HeaderRule;
import io.secio.ckb.header.Pow;
import io.secio.ckb.store.HeaderStore;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The follower's core on a real store, fed generated chains with real (easy) Eaglesong PoW. */
class HeaderChainTest {
  private static final ChainGenerator GENERATOR = new ChainGenerator(7, Pow.EAGLESONG_BLAKE2B, 100);
  private static final List<Header> CHAIN = GENERATOR.chain(4500);
  private static final Clock CLOCK = Clock.fixed(
      Instant.ofEpochMilli(CHAIN.get(CHAIN.size() - 1).timestamp() + 60_000), ZoneOffset.UTC);

  @TempDir
  Path dir;
  private final List<HeaderStore> stores = new ArrayList<>();

  @AfterEach
  void closeStores() {
    stores.forEach(HeaderStore::close);
  }

  private HeaderChain open(Checkpoint start) throws IOException, HeaderException {
    return open(start, CLOCK);
  }

  private HeaderChain open(Checkpoint start, Clock clock) throws IOException, HeaderException {
    HeaderStore store = HeaderStore.open(dir.resolve("headers.mv"), GENERATOR.consensus().genesisHash(), 4);
    stores.add(store);
    return HeaderChain.open(store, GENERATOR.consensus(), clock, start);
  }

  private static List<Header> range(int from, int to) {
    return CHAIN.subList(from, to);
  }

  @Test
  void syncsInFullBatchesUntilAShortOne() throws Exception {
    HeaderChain chain = open(Checkpoint.of(CHAIN.get(0)));
    assertEquals(List.of(CHAIN.get(0).hash()), chain.locator());
    Acceptance first = chain.accept(range(1, 2001));
    assertEquals(2000, first.added());
    assertFalse(first.synced());
    assertEquals(CHAIN.get(2000).hash(), first.nextLocator().orElseThrow().get(0));
    assertEquals(CHAIN.get(0).hash(), first.nextLocator().orElseThrow().get(first.nextLocator().get().size() - 1));
    chain.accept(range(2001, 4001));
    Acceptance last = chain.accept(range(4001, 4501));
    assertTrue(last.synced());
    assertTrue(last.tipChanged());
    assertEquals(new Tip(CHAIN.get(4500).hash(), 4500,
        CompactTarget.toDifficulty(ChainGenerator.EASY_COMPACT_TARGET).multiply(BigInteger.valueOf(4501))), last.tip());
    assertEquals(CHAIN.get(3333), chain.mainHeader(3333).orElseThrow().header());
    // The same batch again adds nothing and moves nothing.
    Acceptance again = chain.accept(range(4001, 4501));
    assertEquals(0, again.added());
    assertFalse(again.tipChanged());
    assertTrue(chain.accept(List.of()).synced());
  }

  @Test
  void aRestartResumesFromTheStore() throws Exception {
    HeaderChain chain = open(Checkpoint.of(CHAIN.get(0)));
    chain.accept(range(1, 1201));
    List<Byte32> locator = chain.locator();
    closeStores();
    stores.clear();
    HeaderChain resumed = open(Checkpoint.of(CHAIN.get(0)));
    assertEquals(CHAIN.get(1200).hash(), resumed.tip().hash());
    assertEquals(locator, resumed.locator());
    assertEquals(301, resumed.accept(range(1201, 1502)).added());
    assertThrows(IllegalArgumentException.class, () -> HeaderChain.open(stores.get(0), GENERATOR.consensus(), CLOCK,
        Checkpoint.of(CHAIN.get(5))));
  }

  @Test
  void aBadBatchStoresNothing() throws Exception {
    HeaderChain chain = open(Checkpoint.of(CHAIN.get(0)));
    chain.accept(range(1, 11));
    List<Header> batch = new ArrayList<>(range(11, 31));
    batch.set(15, batch.get(15).toBuilder().nonce(BigInteger.valueOf(3)).build());
    batch.set(16, batch.get(16).toBuilder().parentHash(batch.get(15).hash()).build());
    assertEquals(HeaderRule.PARENT, assertThrows(HeaderException.class, () -> chain.accept(batch)).rule());
    List<Header> gap = new ArrayList<>(range(11, 31));
    gap.remove(5);
    HeaderException e = assertThrows(HeaderException.class, () -> chain.accept(gap));
    assertEquals(HeaderRule.PARENT, e.rule());
    assertEquals(CHAIN.get(17).hash(), e.hash());
    assertEquals(HeaderRule.UNKNOWN_PARENT, assertThrows(HeaderException.class, () -> chain.accept(range(12, 30))).rule());
    assertEquals(HeaderRule.BATCH_TOO_LONG, assertThrows(HeaderException.class, () -> chain.accept(range(11, 2012))).rule());
    List<Header> late = new ArrayList<>(range(11, 31));
    late.set(19, late.get(19).toBuilder().epoch(late.get(18).epoch()).build());
    assertEquals(HeaderRule.EPOCH_NOT_SUCCESSOR, assertThrows(HeaderException.class, () -> chain.accept(late)).rule());
    assertEquals(CHAIN.get(10).hash(), chain.tip().hash());
    assertTrue(chain.header(11, CHAIN.get(11).hash()).isEmpty());
  }

  @Test
  void aHeaderAheadOfTheClockDefersTheRestWithoutBlame() throws Exception {
    Clock early = Clock.fixed(Instant.ofEpochMilli(CHAIN.get(20).timestamp() - 15_000), ZoneOffset.UTC);
    HeaderChain chain = open(Checkpoint.of(CHAIN.get(0)), early);
    Acceptance acceptance = chain.accept(range(1, 2001));
    assertEquals(HeaderRule.TIMESTAMP_TOO_NEW, acceptance.deferred().orElseThrow().rule());
    assertEquals(CHAIN.get(21).hash(), acceptance.deferred().get().hash());
    assertEquals(20, acceptance.added());
    assertTrue(acceptance.nextLocator().isEmpty());
    assertEquals(CHAIN.get(20).hash(), chain.tip().hash());
  }

  @Test
  void theBranchWithMostWorkIsTheMainChain() throws Exception {
    HeaderChain chain = open(Checkpoint.of(CHAIN.get(0)));
    chain.accept(range(1, 251));
    // A branch from #99, the last block of epoch 0: its next epoch is 4 times harder, so 60 blocks
    // of it outweigh the main chain's 151.
    ChainGenerator rival = new ChainGenerator(8, Pow.EAGLESONG_BLAKE2B, 100);
    int harder = CompactTarget.fromDifficulty(BigInteger.valueOf(64));
    List<Header> light = rival.extend(CHAIN.get(99), 60);
    Acceptance ignored = chain.accept(light);
    assertFalse(ignored.tipChanged());
    assertEquals(CHAIN.get(250).hash(), chain.tip().hash());
    List<Header> heavy = rival.extend(CHAIN.get(99), 60, harder);
    Acceptance switched = chain.accept(heavy);
    assertTrue(switched.tipChanged());
    assertEquals(heavy.get(59).hash(), chain.tip().hash());
    assertEquals(159, chain.tip().number());
    assertEquals(heavy.get(0).hash(), chain.mainHeader(100).orElseThrow().hash());
    assertEquals(CHAIN.get(99).hash(), chain.mainHeader(99).orElseThrow().hash());
    assertTrue(chain.mainHeader(160).isEmpty());
    assertTrue(chain.header(250, CHAIN.get(250).hash()).isPresent());
    List<Byte32> onHeavy = List.of(heavy.get(10).hash(), CHAIN.get(0).hash());
    assertEquals(heavy.subList(11, 60), assertInstanceOf(GetHeadersAnswer.Headers.class,
        chain.answer(onHeavy, Byte32.ZERO)).headers());
    // The old main chain grows back past the branch's work: it is the main chain again.
    assertTrue(chain.accept(range(251, 1001)).tipChanged());
    assertEquals(CHAIN.get(1000).hash(), chain.tip().hash());
    assertEquals(CHAIN.get(100).hash(), chain.mainHeader(100).orElseThrow().hash());
    // The branch's blocks are no longer on the main chain: only genesis is common.
    assertEquals(CHAIN.get(1), assertInstanceOf(GetHeadersAnswer.Headers.class,
        chain.answer(onHeavy, Byte32.ZERO)).headers().get(0));
  }

  @Test
  void answersGetHeadersAsACkbNodeDoes() throws Exception {
    HeaderChain chain = open(Checkpoint.of(CHAIN.get(0)));
    chain.accept(range(1, 2001));
    chain.accept(range(2001, 2601));
    Byte32 genesis = CHAIN.get(0).hash();
    GetHeadersAnswer.Headers fromGenesis = assertInstanceOf(GetHeadersAnswer.Headers.class,
        chain.answer(List.of(genesis), Byte32.ZERO));
    assertEquals(range(1, 2001), fromGenesis.headers());
    GetHeadersAnswer.Headers rest = assertInstanceOf(GetHeadersAnswer.Headers.class,
        chain.answer(List.of(CHAIN.get(2000).hash(), CHAIN.get(1999).hash(), genesis), Byte32.ZERO));
    assertEquals(range(2001, 2601), rest.headers());
    GetHeadersAnswer.Headers stopped = assertInstanceOf(GetHeadersAnswer.Headers.class,
        chain.answer(List.of(CHAIN.get(10).hash(), genesis), CHAIN.get(15).hash()));
    assertEquals(range(11, 15), stopped.headers());
    assertEquals(List.of(), assertInstanceOf(GetHeadersAnswer.Headers.class,
        chain.answer(chain.locator(), Byte32.ZERO)).headers());
    // A peer on a branch we hold: from its newest block on our main chain.
    List<Header> branch = new ChainGenerator(9, Pow.EAGLESONG_BLAKE2B, 100).extend(CHAIN.get(300), 5);
    chain.accept(branch);
    GetHeadersAnswer.Headers fromFork = assertInstanceOf(GetHeadersAnswer.Headers.class,
        chain.answer(List.of(branch.get(4).hash(), CHAIN.get(200).hash(), genesis), Byte32.ZERO));
    assertEquals(CHAIN.get(201), fromFork.headers().get(0));
    assertInstanceOf(GetHeadersAnswer.Refused.class, chain.answer(List.of(CHAIN.get(5).hash()), Byte32.ZERO));
    assertInstanceOf(GetHeadersAnswer.Refused.class, chain.answer(List.of(), Byte32.ZERO));
    List<Byte32> tooLong = new ArrayList<>();
    for (int i = 0; i < 101; i++) {
      tooLong.add(CHAIN.get(i + 1).hash());
    }
    tooLong.add(genesis);
    assertInstanceOf(GetHeadersAnswer.Refused.class, chain.answer(tooLong, Byte32.ZERO));
  }

  @Test
  void aStaleTipAnswersInIbd() throws Exception {
    Clock later = Clock.fixed(Instant.ofEpochMilli(CHAIN.get(100).timestamp() + HeaderChain.MAX_TIP_AGE_MILLIS + 1),
        ZoneOffset.UTC);
    HeaderChain chain = open(Checkpoint.of(CHAIN.get(0)), later);
    chain.accept(range(1, 101));
    assertInstanceOf(GetHeadersAnswer.InIbd.class, chain.answer(List.of(CHAIN.get(0).hash()), Byte32.ZERO));
  }

  @Test
  void followsFromACheckpointKnownByHashAndNumber() throws Exception {
    Header checkpoint = CHAIN.get(1000);
    HeaderChain chain = open(Checkpoint.parse(checkpoint.hash() + ":1000"));
    assertEquals(List.of(checkpoint.hash(), CHAIN.get(0).hash()), chain.locator());
    assertEquals(new Tip(checkpoint.hash(), 1000, BigInteger.ZERO), chain.tip());
    assertEquals(HeaderRule.UNKNOWN_PARENT, assertThrows(HeaderException.class, () -> chain.accept(range(1002, 1010))).rule());
    List<Header> tampered = List.of(CHAIN.get(1001).toBuilder().number(1002).build());
    assertEquals(HeaderRule.NUMBER, assertThrows(HeaderException.class, () -> chain.accept(tampered)).rule());
    assertEquals(HeaderRule.POW, assertThrows(HeaderException.class,
        () -> chain.accept(List.of(CHAIN.get(1001).toBuilder().nonce(BigInteger.ONE).build()))).rule());
    chain.accept(range(1001, 3001));
    List<Byte32> locator = chain.locator();
    assertEquals(CHAIN.get(3000).hash(), locator.get(0));
    assertEquals(CHAIN.get(0).hash(), locator.get(locator.size() - 1));
    for (Byte32 hash : locator.subList(0, locator.size() - 1)) {
      assertTrue(CHAIN.indexOf(CHAIN.stream().filter(h -> h.hash().equals(hash)).findFirst().orElseThrow()) > 1000);
    }
    // A peer whose newest common block is under our start: we cannot serve it.
    assertInstanceOf(GetHeadersAnswer.InIbd.class,
        chain.answer(List.of(CHAIN.get(500).hash(), CHAIN.get(0).hash()), Byte32.ZERO));
    assertEquals(range(1001, 1011), assertInstanceOf(GetHeadersAnswer.Headers.class,
        chain.answer(List.of(checkpoint.hash(), CHAIN.get(0).hash()), CHAIN.get(1011).hash())).headers());
  }

  @Test
  void block0MustBeTheNetworksGenesis() throws Exception {
    HeaderException e = assertThrows(HeaderException.class, () -> open(Checkpoint.of(CHAIN.get(1).toBuilder().number(0).build())));
    assertEquals(HeaderRule.GENESIS, e.rule());
  }
}
