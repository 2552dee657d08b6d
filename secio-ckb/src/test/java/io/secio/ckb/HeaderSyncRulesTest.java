package io.secio.ckb;

import static io.secio.ckb.HeldChain.AFTER_TIP;
import static io.secio.ckb.HeldChain.CHAIN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.ckb.chain.Tip;
import io.secio.ckb.header.Byte32;
import io.secio.ckb.header.Header;
import io.secio.ckb.header.HeaderException;
import io.secio.ckb.header.HeaderRule;
import io.secio.ckb.message.SyncMessage;
import io.secio.ckb.protocol.CkbException;
import io.secio.ckb.protocol.CkbProtocol;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Sync with a header chain ({@code docs/CKB.md}, "The follower over the network"), both roles against
 * the hostile peer on a driven clock: what this side asks (a locator a node accepts; again at once
 * after a full batch, after the re-ask interval after a short one), what it stores, and the node's
 * rules it applies: a bad batch bans for 300 s and stores nothing, a too-new header is not blamed, a
 * GetHeaders without genesis last bans for 600 s when serving, InIBD from a dialed peer ends the
 * session and from a dialing one suspends sync for 5 minutes, a dialed peer that leaves the chain in
 * IBD is dropped; and what a served chain answers.
 */
class HeaderSyncRulesTest {
  @TempDir
  Path dir;
  @RegisterExtension
  final Closing closing = new Closing();

  private HeldChain held(Clock clock, int upTo) throws Exception {
    HeldChain h = HeldChain.direct(dir.resolve("chain" + closing.size() + ".mv"), clock, upTo);
    closing.keep(h);
    return h;
  }

  /** Our side holding {@code chain} in {@code mode}, its Sync open with the hostile peer. */
  private Duel syncing(boolean weDial, HeldChain chain, HeaderSync mode) {
    Duel d = new Duel(weDial, HeldChain.network(), b -> b.headers(chain.follower, mode));
    closing.keep(d);
    d.identified();
    if (!weDial) {
      d.open(CkbProtocol.DISCONNECT_MESSAGE);
      d.open(CkbProtocol.SYNC);
    }
    assertTrue(d.hostile.isOpen(CkbProtocol.SYNC));
    return d;
  }

  private static List<SyncMessage> received(Duel d) {
    List<SyncMessage> out = new ArrayList<>();
    for (byte[] payload : d.hostile.takePayloads(CkbProtocol.SYNC)) {
      try {
        out.add(SyncMessage.decode(payload));
      } catch (CkbException e) {
        throw new AssertionError("our side wrote a bad SyncMessage", e);
      }
    }
    return out;
  }

  /** The one GetHeaders our side sent, checked as a node checks it. */
  private static SyncMessage.GetHeaders getHeaders(Duel d) {
    List<SyncMessage> messages = received(d);
    assertEquals(1, messages.size(), () -> d + ": " + messages);
    SyncMessage.GetHeaders g = assertInstanceOf(SyncMessage.GetHeaders.class, messages.get(0));
    assertTrue(Byte32.of(g.hashStop()).isZero());
    assertFalse(g.locator().isEmpty());
    assertTrue(g.locator().size() <= 101);
    assertEquals(CHAIN.get(0).hash(), Byte32.of(g.locator().get(g.locator().size() - 1)), "genesis last");
    return g;
  }

  private static void sendHeaders(Duel d, List<Header> headers) {
    d.hostile.sendRaw(CkbProtocol.SYNC, new SyncMessage.SendHeaders(headers.stream().map(Header::toBytes).toList())
        .encode());
    d.pair.pump();
  }

  private static void getHeadersFromUs(Duel d, List<Byte32> locator, Byte32 hashStop) {
    d.hostile.sendRaw(CkbProtocol.SYNC, new SyncMessage.GetHeaders(hashStop.toBytes(),
        locator.stream().map(Byte32::toBytes).toList()).encode());
    d.pair.pump();
  }

  private static <T extends CkbEvent> List<T> events(Duel d, Class<T> type) {
    return d.events.stream().filter(type::isInstance).map(type::cast).toList();
  }

  private static Tip tipAt(int n) {
    BigInteger perBlock = BigInteger.valueOf(16);
    return new Tip(CHAIN.get(n).hash(), n, perBlock.multiply(BigInteger.valueOf(n + 1)));
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void asksWithTheTipsLocatorGenesisLast(boolean weDial) throws Exception {
    Duel d = syncing(weDial, held(AFTER_TIP, 2300), HeaderSync.FOLLOW);
    SyncMessage.GetHeaders g = getHeaders(d);
    assertEquals(CHAIN.get(2300).hash(), Byte32.of(g.locator().get(0)));
    for (int i = 0; i < 10; i++) {
      assertEquals(CHAIN.get(2300 - i).hash(), Byte32.of(g.locator().get(i)), "step 1 for 10 entries");
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void followsFullBatchesAtOnceAndAsksAgainAfterTheReAskInterval(boolean weDial) throws Exception {
    HeldChain chain = held(AFTER_TIP, 0);
    Duel d = syncing(weDial, chain, HeaderSync.FOLLOW);
    assertEquals(List.of(CHAIN.get(0).hash()), getHeaders(d).locator().stream().map(Byte32::of).toList());

    sendHeaders(d, CHAIN.subList(1, 2001));
    assertEquals(CHAIN.get(2000).hash(), Byte32.of(getHeaders(d).locator().get(0)), "the next question at once");
    assertEquals(List.of(new CkbEvent.HeadersAccepted(2000, 2000, tipAt(2000))), events(d, CkbEvent.HeadersAccepted.class));
    assertEquals(List.of(new CkbEvent.NewTip(tipAt(2000))), events(d, CkbEvent.NewTip.class));

    sendHeaders(d, CHAIN.subList(2001, 2501));
    assertEquals(List.of(new CkbEvent.HeadersSynced(tipAt(2500))), events(d, CkbEvent.HeadersSynced.class));
    assertEquals(tipAt(2500), chain.follower.tip());
    assertEquals(List.of(), received(d), "synced: nothing asked");
    d.pair.advance(27);
    assertEquals(List.of(), received(d));
    d.pair.advance(2);
    assertEquals(CHAIN.get(2500).hash(), Byte32.of(getHeaders(d).locator().get(0)), "asked again after 28 s");
    sendHeaders(d, List.of());
    assertEquals(2, events(d, CkbEvent.HeadersSynced.class).size());
    assertTrue(d.ours().isOpen());
  }

  @ParameterizedTest
  @ValueSource(strings = {"not continuous", "nonce", "unknown parent", "number", "compact target"})
  void aBadBatchIsBannedFor300SecondsAndNothingOfItIsStored(String tampering) throws Exception {
    for (boolean weDial : new boolean[] {true, false}) {
      HeldChain chain = held(AFTER_TIP, 0);
      Duel d = syncing(weDial, chain, HeaderSync.FOLLOW);
      getHeaders(d);
      List<Header> batch = new ArrayList<>(CHAIN.subList(1, 101));
      Header h = batch.get(50);
      HeaderRule rule;
      switch (tampering) {
        case "not continuous" -> {
          batch.remove(50);
          rule = HeaderRule.PARENT;
        }
        case "nonce" -> {
          batch.set(99, LastStateRulesTest.failingPow(batch.get(99)));
          rule = HeaderRule.POW;
        }
        case "unknown parent" -> {
          batch = new ArrayList<>(CHAIN.subList(2, 101));
          rule = HeaderRule.UNKNOWN_PARENT;
        }
        case "number" -> {
          batch = new ArrayList<>(CHAIN.subList(1, 51));
          batch.add(h.toBuilder().number(h.number() + 1).build());
          rule = HeaderRule.NUMBER;
        }
        default -> {
          batch = new ArrayList<>(CHAIN.subList(1, 51));
          batch.add(h.toBuilder().compactTarget(h.compactTarget() - 1).build());
          rule = HeaderRule.COMPACT_TARGET_CHANGED;
        }
      }
      sendHeaders(d, batch);
      assertFalse(d.ours().isOpen(), d + ": " + tampering);
      CkbException cause = d.cause();
      assertTrue(cause.isBan());
      assertEquals(CkbException.Reason.INVALID_HEADER, cause.reason());
      assertEquals(rule, assertInstanceOf(HeaderException.class, cause.getCause()).rule(), tampering);
      List<String> goodbyes = d.hostile.goodbyes();
      assertEquals(1, goodbyes.size());
      assertTrue(goodbyes.get(0).startsWith("Ban for 300 seconds, reason: HeadersIsInvalid(415): "), goodbyes.get(0));
      assertEquals(tipAt(0).hash(), chain.follower.tip().hash(), "nothing of the batch stored");
      assertEquals(1, chain.store.headerCount());
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aHeaderAheadOfTheClockStopsTheBatchWithoutBlame(boolean weDial) throws Exception {
    HeldChain chain = held(HeldChain.at(CHAIN.get(40).timestamp()), 0);
    Duel d = syncing(weDial, chain, HeaderSync.FOLLOW);
    getHeaders(d);
    sendHeaders(d, CHAIN.subList(1, 101));
    assertTrue(d.ours().isOpen());
    long tip = chain.follower.tip().number();
    assertTrue(tip >= 40 && tip < 100, "stored up to the clock + 15 s: #" + tip);
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void inIbdFromADialedPeerEndsTheSessionAndFromADialingOneWaitsFiveMinutes(boolean weDial) throws Exception {
    Duel d = syncing(weDial, held(AFTER_TIP, 10), HeaderSync.FOLLOW);
    getHeaders(d);
    d.hostile.sendRaw(CkbProtocol.SYNC, new SyncMessage.InIbd().encode());
    d.pair.pump();
    assertEquals(List.of(), received(d), "an InIBD is never answered");
    if (weDial) {
      assertFalse(d.ours().isOpen());
      assertEquals(List.of("outbound in ibd"), d.hostile.goodbyes());
      assertFalse(d.cause().isBan());
      return;
    }
    d.pair.advance(299);
    assertEquals(List.of(), received(d), "suspended");
    d.pair.advance(2);
    assertEquals(CHAIN.get(10).hash(), Byte32.of(getHeaders(d).locator().get(0)));
    assertTrue(d.ours().isOpen());
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aDialedPeerThatLeavesTheChainInIbdIsDropped(boolean weDial) throws Exception {
    Duel d = syncing(weDial, held(HeldChain.at(CHAIN.get(2500).timestamp() + 48 * 3600_000L), 0), HeaderSync.FOLLOW);
    getHeaders(d);
    sendHeaders(d, CHAIN.subList(1, 11));
    assertEquals(!weDial, d.ours().isOpen());
    if (weDial) {
      assertEquals(List.of("useless outbound peer in IBD"), d.hostile.goodbyes());
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aServedChainAnswersFromItsMainChainAndAsksNothing(boolean weDial) throws Exception {
    Duel d = syncing(weDial, held(AFTER_TIP, 2500), HeaderSync.SERVE);
    assertEquals(List.of(), received(d), "serving only: nothing asked");
    Byte32 genesis = CHAIN.get(0).hash();
    getHeadersFromUs(d, List.of(Byte32.of(new byte[32]), CHAIN.get(100).hash(), genesis), Byte32.ZERO);
    SyncMessage.SendHeaders full = assertInstanceOf(SyncMessage.SendHeaders.class, received(d).get(0));
    assertEquals(2000, full.headers().size());
    assertEquals(CHAIN.get(101), Header.fromBytes(full.headers().get(0)));
    assertEquals(CHAIN.get(2100), Header.fromBytes(full.headers().get(1999)));
    getHeadersFromUs(d, List.of(CHAIN.get(100).hash(), genesis), CHAIN.get(150).hash());
    assertEquals(49, assertInstanceOf(SyncMessage.SendHeaders.class, received(d).get(0)).headers().size(), "stops before hash_stop");
    getHeadersFromUs(d, List.of(CHAIN.get(2500).hash(), genesis), Byte32.ZERO);
    assertEquals(0, assertInstanceOf(SyncMessage.SendHeaders.class, received(d).get(0)).headers().size(), "our tip: none");
    assertTrue(d.ours().isOpen());
  }

  @ParameterizedTest
  @ValueSource(strings = {"no genesis", "empty"})
  void aServedChainBansALocatorWithoutGenesisLastFor600Seconds(String locator) throws Exception {
    for (boolean weDial : new boolean[] {true, false}) {
      Duel d = syncing(weDial, held(AFTER_TIP, 100), HeaderSync.FOLLOW_AND_SERVE);
      received(d);
      getHeadersFromUs(d, locator.equals("empty") ? List.of() : List.of(CHAIN.get(5).hash()), Byte32.ZERO);
      assertFalse(d.ours().isOpen(), d + ": " + locator);
      assertTrue(d.cause().isBan());
      List<String> goodbyes = d.hostile.goodbyes();
      assertEquals(1, goodbyes.size());
      assertTrue(goodbyes.get(0).startsWith("Ban for 600 seconds, reason: GetHeadersMissCommonAncestors(414): "),
          goodbyes.get(0));
      assertEquals(List.of(), received(d), "no answer");
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aFollowerThatDoesNotServeAnswersInIbdAndBansNothing(boolean weDial) throws Exception {
    Duel d = syncing(weDial, held(AFTER_TIP, 100), HeaderSync.FOLLOW);
    received(d);
    getHeadersFromUs(d, List.of(CHAIN.get(5).hash()), Byte32.ZERO);
    assertInstanceOf(SyncMessage.InIbd.class, received(d).get(0));
    assertTrue(d.ours().isOpen());
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aServedChainWhoseTipIsADayOldAnswersInIbd(boolean weDial) throws Exception {
    Clock dayLater = HeldChain.at(CHAIN.get(2500).timestamp() + 24 * 3600_000L + 1);
    Duel d = syncing(weDial, held(dayLater, 2500), HeaderSync.SERVE);
    getHeadersFromUs(d, List.of(CHAIN.get(0).hash()), Byte32.ZERO);
    assertInstanceOf(SyncMessage.InIbd.class, received(d).get(0));
    assertTrue(d.ours().isOpen());
  }
}
