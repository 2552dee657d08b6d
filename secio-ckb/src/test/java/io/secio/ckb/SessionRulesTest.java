package io.secio.ckb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.ckb.message.TimeMessage;
import io.secio.multiaddr.Multiaddr;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The rules around the protocols ({@code docs/CKB.md} §7, §11): the disconnect message both ways,
 * the feeler, Sync or Feeler required open 10 s in (checked every 30 s), Time (sent to a peer that
 * dialed us, a malformed one banned), what our dialer opens after Identify, and the dialed address
 * kept in the address book.
 */
class SessionRulesTest {

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void thePeersGoodbyeIsSurfacedAndEndsTheSession(boolean weDial) {
    try (Duel d = new Duel(weDial).identified()) {
      if (!weDial) {
        d.open(CkbProtocol.DISCONNECT_MESSAGE);
      }
      d.send(CkbProtocol.DISCONNECT_MESSAGE, "Ban for 300 seconds, reason: ProtocolError id=1".getBytes(StandardCharsets.UTF_8));
      assertFalse(d.ours().isOpen());
      assertTrue(d.events.contains(new CkbEvent.PeerSaidGoodbye("Ban for 300 seconds, reason: ProtocolError id=1")));
      assertEquals(CkbException.Reason.CLOSED, d.cause().reason());
      assertEquals(List.of(), d.hostile.goodbyes(), "nothing said back");
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void ourReasonGoesFirst(boolean weDial) {
    try (Duel d = new Duel(weDial).identified()) {
      if (!weDial) {
        d.open(CkbProtocol.DISCONNECT_MESSAGE);
      }
      d.session().getNow().disconnect("goodbye");
      d.pair.pump();
      assertEquals(List.of("goodbye"), d.hostile.goodbyes());
      assertFalse(d.theirs().isOpen());
    }
  }

  @Test
  void aLongReasonIsCutToTheFrameAtACharactersEnd() {
    try (Duel d = new Duel(true).identified()) {
      d.session().getNow().disconnect("é".repeat(600));
      d.pair.pump();
      assertEquals("é".repeat(512), d.hostile.goodbyes().get(0));
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aFeelerIsRecordedByTheDialerAndEndsTheSession(boolean weDial) {
    Multiaddr dialed = Multiaddr.parse("/ip4/198.51.100.9/tcp/8115");
    try (Duel d = new Duel(weDial)) {
      d.dialed = dialed;
      d.identified();
      d.open(CkbProtocol.FEELER);
      assertFalse(d.ours().isOpen());
      assertEquals("feeler connection", d.cause().getMessage().replaceAll(".*: ", ""));
      if (weDial) {
        assertEquals(List.of(new Node(List.of(dialed), IdentifyFlags.FULL_NODE_REQUIRED | IdentifyFlags.COMPATIBILITY)),
            d.config.addressBook().random(10, IdentifyFlags.DISCOVERY));
      }
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void syncOrFeelerMustBeOpenAtTheCheck(boolean weDial) {
    try (Duel d = new Duel(weDial)) {
      // Our dialer opens Sync itself: a peer without it leaves it closed.
      d.hostileLacks = Set.of(CkbProtocol.SYNC);
      d.identified();
      if (!weDial) {
        d.open(CkbProtocol.DISCONNECT_MESSAGE);
      }
      d.pair.advance(29);
      assertTrue(d.ours().isOpen(), "29 s: not checked yet");
      d.pair.advance(1);
      assertFalse(d.ours().isOpen(), "30 s: no Sync");
      assertEquals(List.of("open protocols error: incomplete open protocols"), d.hostile.goodbyes());
      assertEquals(CkbException.Reason.INCOMPLETE_PROTOCOLS, d.cause().reason());
    }
  }

  @Test
  void aListenerWithSyncOpenIsKept() {
    try (Duel d = new Duel(false).identified()) {
      d.open(CkbProtocol.SYNC);
      d.open(CkbProtocol.PING);
      d.pair.advance(31);
      assertTrue(d.ours().isOpen());
    }
  }

  @Test
  void ourDialerOpensTheProtocolsAfterIdentifyButNotFeeler() {
    try (Duel d = new Duel(true).connect()) {
      assertTrue(d.hostile.isOpen(CkbProtocol.IDENTIFY));
      assertFalse(d.hostile.isOpen(CkbProtocol.SYNC), "nothing before the peer identified");
      d.hostile.identify(CkbNetwork.TESTNET.identifyName(), IdentifyFlags.DISCOVERY);
      d.pair.pump();
      for (CkbProtocol p : List.of(CkbProtocol.PING, CkbProtocol.DISCOVERY, CkbProtocol.DISCONNECT_MESSAGE,
          CkbProtocol.SYNC, CkbProtocol.TIME)) {
        assertTrue(d.hostile.isOpen(p), p.toString());
      }
      for (CkbProtocol p : List.of(CkbProtocol.FEELER, CkbProtocol.RELAY, CkbProtocol.LIGHT_CLIENT, CkbProtocol.FILTER,
          CkbProtocol.ALERT)) {
        assertFalse(d.hostile.isOpen(p), p.toString());
      }
    }
  }

  @Test
  void ourListenerSendsItsTimeToAPeerThatDialedItAndADialerDoesNot() throws CkbException {
    try (Duel d = new Duel(false).identified()) {
      d.open(CkbProtocol.TIME);
      byte[] sent = d.hostile.take(CkbProtocol.TIME).get(0);
      assertEquals(0, sent[0], "flag");
      assertEquals(d.clock.millis(), TimeMessage.decode(java.util.Arrays.copyOfRange(sent, 1, sent.length)).timestamp());
    }
    try (Duel d = new Duel(true).identified()) {
      assertEquals(List.of(), d.hostile.take(CkbProtocol.TIME));
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aMalformedTimeIsBanned(boolean weDial) {
    try (Duel d = new Duel(weDial).identified()) {
      if (!weDial) {
        d.open(CkbProtocol.TIME);
        d.open(CkbProtocol.DISCONNECT_MESSAGE);
      }
      d.hostile.sendRaw(CkbProtocol.TIME, io.secio.molecule.Molecule.table(new byte[8], new byte[4]));
      d.pair.pump();
      assertEquals(List.of("Ban for 300 seconds, reason: send us a malformed message"), d.hostile.goodbyes());
      assertTrue(d.cause().isBan());
    }
  }
}
