package io.secio.ckb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.ckb.chain.Checkpoint;
import io.secio.ckb.chain.HeaderFollower;
import io.secio.ckb.header.Byte32;
import io.secio.ckb.header.ChainGenerator;
import io.secio.ckb.header.Header;
import io.secio.ckb.header.HeaderRule;
import io.secio.ckb.header.Pow;
import io.secio.ckb.lightclient.ChainRoot;
import io.secio.ckb.lightclient.HeaderDigest;
import io.secio.ckb.lightclient.LastStateVerifier;
import io.secio.ckb.lightclient.LightClientCodec;
import io.secio.ckb.lightclient.LightClientMessage;
import io.secio.ckb.lightclient.VerifiableHeader;
import io.secio.ckb.protocol.CkbException;
import io.secio.ckb.protocol.CkbProtocol;
import io.secio.ckb.protocol.IdentifyFlags;
import io.secio.ckb.store.HeaderStore;
import io.secio.ckb.testing.MoleculeExamples;
import io.secio.molecule.Molecule;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code /ckb/lightclient} both ways against the hostile peer on a driven clock ({@code docs/CKB.md},
 * "The light client over the network"). As a client: it subscribes, surfaces verified tips, asks
 * again after 8 s, refuses tampered tips with their rule and bans at the tenth refusal within an hour,
 * bans a malformed message at once, ends a session whose server stops answering. As a server: it
 * answers with a tip the light client's checks pass, pushes new tips to a subscriber, bans items a
 * server does not take and malformed ones, leaves proof requests unanswered.
 */
class LastStateRulesTest {
  private static final long NOW = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
  private static final ChainGenerator GENERATOR = new ChainGenerator(51, Pow.EAGLESONG, 20, NOW - 600_000);
  private static final List<Header> CHAIN = GENERATOR.chainWithRoots(60);
  private static final long LIGHT_SERVER = IdentifyFlags.FULL_NODE_REQUIRED | IdentifyFlags.LIGHT_CLIENT;

  @TempDir
  Path dir;
  @RegisterExtension
  final Closing closing = new Closing();

  /** Block {@code n} as a server sends it: no uncles, its extension the parent chain root's hash. */
  private static VerifiableHeader served(int n) {
    return served(CHAIN, n);
  }

  /** Block {@code n} of a chain made by {@code chainWithRoots}, as a server sends it. */
  static VerifiableHeader served(List<Header> chain, int n) {
    ChainRoot root = new ChainRoot();
    chain.subList(0, n).forEach(root::push);
    HeaderDigest parent = root.root();
    return n == 0 ? new VerifiableHeader(chain.get(0), chain.get(0).extraHash(), Optional.empty(), parent)
        : new VerifiableHeader(chain.get(n), Byte32.ZERO, Optional.of(parent.mmrHash().toBytes()), parent);
  }

  private static byte[] sendLastState(VerifiableHeader tip) {
    return LightClientCodec.encode(new LightClientMessage.SendLastState(tip));
  }

  private static byte[] getLastState(boolean subscribe) {
    return LightClientCodec.encode(new LightClientMessage.GetLastState(subscribe));
  }

  private static List<LightClientMessage> received(Duel d) throws Exception {
    List<LightClientMessage> out = new ArrayList<>();
    for (byte[] payload : d.hostile.takePayloads(CkbProtocol.LIGHT_CLIENT)) {
      out.add(LightClientCodec.decode(payload));
    }
    return out;
  }

  /** Moves the config's clock and the event loops' time together, a second at a time. */
  private static void pass(Duel d, long seconds) {
    for (long s = 0; s < seconds; s++) {
      d.clock.advance(Duration.ofSeconds(1));
      d.pair.advance(1);
    }
  }

  private Duel duel(boolean weDial, java.util.function.UnaryOperator<CkbConfig.Builder> tweak) {
    Duel d = new Duel(weDial, GENERATOR.consensus().network(), tweak);
    d.hostileFlags = LIGHT_SERVER;
    closing.keep(d);
    d.identified();
    if (!weDial) {
      d.open(CkbProtocol.DISCONNECT_MESSAGE);
      d.open(CkbProtocol.SYNC);
    }
    return d;
  }

  /** Our side subscribed to the hostile server's tips; its GetLastState taken. */
  private Duel subscribed(boolean weDial) throws Exception {
    Duel d = duel(weDial, b -> b.subscribeLastState(GENERATOR.consensus(), Duration.ofSeconds(8)));
    if (!weDial) {
      d.open(CkbProtocol.LIGHT_CLIENT);
    }
    assertTrue(d.hostile.isOpen(CkbProtocol.LIGHT_CLIENT));
    assertEquals(List.of(new LightClientMessage.GetLastState(true)), received(d));
    return d;
  }

  private static <T extends CkbEvent> List<T> events(Duel d, Class<T> type) {
    return d.events.stream().filter(type::isInstance).map(type::cast).toList();
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aClientSurfacesVerifiedTipsAndAsksAgainAfterEightSeconds(boolean weDial) throws Exception {
    Duel d = subscribed(weDial);
    d.send(CkbProtocol.LIGHT_CLIENT, frame(sendLastState(served(50))));
    d.send(CkbProtocol.LIGHT_CLIENT, frame(sendLastState(served(50))));
    assertEquals(List.of(new CkbEvent.LastStateReceived(served(50), BigInteger.valueOf(16 * 51))),
        events(d, CkbEvent.LastStateReceived.class), "the same tip twice is one event");
    pass(d, 8);
    assertEquals(List.of(), received(d));
    pass(d, 2);
    assertEquals(List.of(new LightClientMessage.GetLastState(true)), received(d), "asked again");
    d.send(CkbProtocol.LIGHT_CLIENT, frame(sendLastState(served(51))));
    assertEquals(51, events(d, CkbEvent.LastStateReceived.class).get(1).tip().header().number());
    assertTrue(d.ours().isOpen());
  }

  @ParameterizedTest
  @ValueSource(strings = {"nonce", "extension", "uncles hash", "a day old"})
  void aClientRefusesATamperedTipWithItsRuleAndBansAtTheTenthInAnHour(String tampering) throws Exception {
    for (boolean weDial : new boolean[] {true, false}) {
      Duel d = subscribed(weDial);
      VerifiableHeader good = served(40);
      Header h = good.header();
      HeaderRule rule;
      VerifiableHeader bad;
      switch (tampering) {
        case "nonce" -> {
          bad = new VerifiableHeader(failingPow(h), good.unclesHash(), good.extension(), good.parentChainRoot());
          rule = HeaderRule.POW;
        }
        case "extension" -> {
          bad = new VerifiableHeader(h, good.unclesHash(), Optional.of(served(39).extension().orElseThrow()),
              good.parentChainRoot());
          rule = HeaderRule.CHAIN_ROOT;
        }
        case "uncles hash" -> {
          bad = new VerifiableHeader(h, h.hash(), good.extension(), good.parentChainRoot());
          rule = HeaderRule.EXTRA_HASH;
        }
        default -> {
          bad = good;
          d.clock.advance(Duration.ofHours(25));
          rule = HeaderRule.TIP_TOO_OLD;
        }
      }
      for (int i = 1; i <= 9; i++) {
        d.send(CkbProtocol.LIGHT_CLIENT, frame(sendLastState(bad)));
      }
      List<CkbEvent.LastStateRefused> refused = events(d, CkbEvent.LastStateRefused.class);
      assertEquals(9, refused.size(), d + ": " + tampering);
      refused.forEach(r -> assertEquals(rule, r.cause().rule()));
      assertTrue(d.ours().isOpen(), "nine refusals are tolerated");
      assertEquals(List.of(), events(d, CkbEvent.LastStateReceived.class));
      d.send(CkbProtocol.LIGHT_CLIENT, frame(sendLastState(bad)));
      assertBanned(d, "InvalidLastState(412): ");
      assertEquals(CkbException.Reason.INVALID_LAST_STATE, d.cause().reason());
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void refusalsOlderThanAnHourAreForgotten(boolean weDial) throws Exception {
    Duel d = subscribed(weDial);
    VerifiableHeader bad = new VerifiableHeader(CHAIN.get(40), CHAIN.get(3).hash(), served(40).extension(),
        served(40).parentChainRoot());
    for (int i = 0; i < 9; i++) {
      d.send(CkbProtocol.LIGHT_CLIENT, frame(sendLastState(bad)));
    }
    d.clock.advance(Duration.ofMinutes(61));
    for (int i = 0; i < 9; i++) {
      d.send(CkbProtocol.LIGHT_CLIENT, frame(sendLastState(bad)));
    }
    assertTrue(d.ours().isOpen());
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aClientBansAMalformedMessageAtOnce(boolean weDial) throws Exception {
    Duel d = subscribed(weDial);
    d.send(CkbProtocol.LIGHT_CLIENT, frame(new byte[] {1, 0, 0, 0, 4, 0, 0, 0}));
    assertFalse(d.ours().isOpen());
    assertEquals(List.of("Ban for 300 seconds, reason: send us a malformed message"), d.hostile.goodbyes());
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aClientEndsTheSessionWhenAQuestionGoesUnansweredFor60Seconds(boolean weDial) throws Exception {
    Duel d = subscribed(weDial);
    pass(d, 60);
    assertTrue(d.ours().isOpen());
    pass(d, 2);
    assertFalse(d.ours().isOpen());
    assertEquals(List.of("reach timeout"), d.hostile.goodbyes());
    assertFalse(d.cause().isBan());
  }

  private HeaderFollower servedChain(int upTo) throws Exception {
    HeaderStore store = HeaderStore.open(dir.resolve("served" + closing.size() + ".mv"), GENERATOR.consensus().genesisHash(), 2);
    closing.keep(store);
    HeaderFollower follower = HeaderFollower.open(store, GENERATOR.consensus(), HeldChain.at(NOW),
        Checkpoint.of(CHAIN.get(0)), Runnable::run);
    if (upTo > 0) {
      follower.accept(CHAIN.subList(1, upTo + 1)).join();
    }
    return follower;
  }

  /** Our side serving {@code chain}; the hostile peer has opened LightClient. */
  private Duel serving(boolean weDial, HeaderFollower chain) {
    Duel d = duel(weDial, b -> b.serveLastState(chain).flags(IdentifyFlags.DISCOVERY | IdentifyFlags.LIGHT_CLIENT));
    d.open(CkbProtocol.LIGHT_CLIENT);
    return d;
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aServerAnswersWithATipTheLightClientsChecksPassAndPushesNewOnes(boolean weDial) throws Exception {
    HeaderFollower chain = servedChain(50);
    Duel d = serving(weDial, chain);
    assertEquals(List.of(), received(d), "a server speaks when asked");
    d.send(CkbProtocol.LIGHT_CLIENT, frame(getLastState(true)));
    LightClientMessage.SendLastState answer = assertInstanceOf(LightClientMessage.SendLastState.class, received(d).get(0));
    assertEquals(served(50), answer.lastHeader());
    LastStateVerifier verifier = new LastStateVerifier(GENERATOR.consensus(), HeldChain.at(NOW));
    assertEquals(BigInteger.valueOf(16 * 51), verifier.verify(answer.lastHeader()));

    pass(d, 3);
    assertEquals(List.of(), received(d), "no news, nothing pushed");
    chain.accept(CHAIN.subList(51, 56)).join();
    pass(d, 1);
    assertEquals(List.of(new LightClientMessage.SendLastState(served(55))), received(d), "the new tip pushed");
    d.send(CkbProtocol.LIGHT_CLIENT, frame(getLastState(false)));
    assertEquals(List.of(new LightClientMessage.SendLastState(served(55))), received(d));
    assertTrue(d.ours().isOpen());
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aServerServesAGenesisTipWithAZeroRoot(boolean weDial) throws Exception {
    Duel d = serving(weDial, servedChain(0));
    d.send(CkbProtocol.LIGHT_CLIENT, frame(getLastState(false)));
    VerifiableHeader tip = assertInstanceOf(LightClientMessage.SendLastState.class, received(d).get(0)).lastHeader();
    assertTrue(tip.parentChainRoot().isZero());
    assertEquals(served(0), tip);
  }

  @ParameterizedTest
  @ValueSource(strings = {"SendLastState", "malformed", "a proof"})
  void aServerBansWhatAServerDoesNotTake(String what) throws Exception {
    for (boolean weDial : new boolean[] {true, false}) {
      Duel d = serving(weDial, servedChain(10));
      byte[] message = switch (what) {
        case "SendLastState" -> sendLastState(served(10));
        case "malformed" -> getLastState(true).clone();
        default -> MoleculeExamples.union(3, Molecule.table());
      };
      if (what.equals("malformed")) {
        message[message.length - 1] = 2;
      }
      d.send(CkbProtocol.LIGHT_CLIENT, frame(message));
      assertBanned(d, "");
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aServerLeavesAStrictProofRequestUnanswered(boolean weDial) throws Exception {
    Duel d = serving(weDial, servedChain(10));
    byte[] hashes = new byte[4 + 32];
    hashes[0] = 1;
    d.send(CkbProtocol.LIGHT_CLIENT, frame(MoleculeExamples.union(LightClientCodec.GET_BLOCKS_PROOF, Molecule.table(new byte[32], hashes))));
    assertEquals(List.of(), received(d));
    assertTrue(d.ours().isOpen());
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aServerDoesNotServeAChainItCannotRoot(boolean weDial) throws Exception {
    HeaderStore store = HeaderStore.open(dir.resolve("checkpoint.mv"), GENERATOR.consensus().genesisHash(), 2);
    closing.keep(store);
    HeaderFollower fromCheckpoint = HeaderFollower.open(store, GENERATOR.consensus(), HeldChain.at(NOW),
        Checkpoint.of(CHAIN.get(20)), Runnable::run);
    fromCheckpoint.accept(CHAIN.subList(21, 30)).join();
    Duel d = serving(weDial, fromCheckpoint);
    d.send(CkbProtocol.LIGHT_CLIENT, frame(getLastState(true)));
    assertEquals(List.of(), received(d), "blocks before the checkpoint are unknown: no root");
    assertTrue(d.ours().isOpen());
  }

  /** Our side closed the session with one goodbye: a 300 s ban whose reason starts with {@code reason}. */
  private static void assertBanned(Duel d, String reason) {
    assertFalse(d.ours().isOpen(), d.toString());
    assertTrue(d.cause().isBan());
    List<String> goodbyes = d.hostile.goodbyes();
    assertEquals(1, goodbyes.size());
    assertTrue(goodbyes.get(0).startsWith("Ban for 300 seconds, reason: " + reason), goodbyes.get(0));
  }

  /** {@code h} with the next nonce that is no proof of work (at difficulty 16, about one in 16 is one). */
  static Header failingPow(Header h) {
    BigInteger nonce = h.nonce();
    Header out;
    do {
      nonce = nonce.add(BigInteger.ONE);
      out = h.toBuilder().nonce(nonce).build();
    } while (Pow.EAGLESONG.verify(out));
    return out;
  }

  /** A compress-codec message with flag 0x00. */
  private static byte[] frame(byte[] payload) {
    byte[] out = new byte[payload.length + 1];
    System.arraycopy(payload, 0, out, 1, payload.length);
    return out;
  }

}
