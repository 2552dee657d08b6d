package io.secio.ckb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.ckb.message.Identify;
import io.secio.ckb.message.IdentifyMessage;
import io.secio.molecule.Molecule;
import io.secio.multiaddr.Multiaddr;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Identify's rules ({@code docs/CKB.md} §6, §11), each driven by the hostile peer against our
 * listener and our dialer: what we send, the bans (another network, flag 0, an Identify that is not
 * strict: 300 s, the reconnection refused until it runs out) and the disconnects (an undecodable
 * message, a second one, over 10 addresses, 8 s of silence, a dialed peer lacking our required flags).
 */
class IdentifyRulesTest {

  private static Duel started(boolean weDial) {
    Duel d = new Duel(weDial, b -> b.listenAddrs(List.of(Multiaddr.parse("/ip4/127.0.0.1/tcp/8115"))));
    d.connect();
    if (!weDial) {
      d.open(CkbProtocol.IDENTIFY);
      d.open(CkbProtocol.DISCONNECT_MESSAGE);
    }
    return d;
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void weSendOneIdentifyANodeAccepts(boolean weDial) throws Exception {
    try (Duel d = started(weDial)) {
      List<byte[]> sent = d.hostile.take(CkbProtocol.IDENTIFY);
      assertEquals(1, sent.size());
      IdentifyMessage m = IdentifyMessage.decode(sent.get(0));
      Identify id = Identify.decode(m.identify());
      assertEquals(CkbNetwork.TESTNET.identifyName(), id.name());
      assertEquals(IdentifyFlags.DISCOVERY, id.flag(), "what we serve");
      assertTrue(id.clientVersion().startsWith("secio-java"));
      assertEquals(List.of(Multiaddr.parse("/ip4/127.0.0.1/tcp/8115")), m.listenAddrs());
      InetSocketAddress peer = weDial ? CkbPair.LISTENER_ADDRESS : CkbPair.DIALER_ADDRESS;
      assertEquals(Multiaddr.of(peer), m.observedAddr(), "the peer's address as the socket shows it");
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void anotherNetworkIsBannedAndItsReconnectionRefusedFor300Seconds(boolean weDial) {
    try (Duel d = started(weDial)) {
      if (weDial) {
        d.hostile.open(CkbProtocol.DISCONNECT_MESSAGE);
        d.pair.pump();
      }
      d.send(CkbProtocol.IDENTIFY, identifyMessage(new Identify(0x3f, CkbNetwork.MAINNET.identifyName(), "x").encode()));
      assertEquals(List.of("Ban for 300 seconds, reason: The nodes are not on the same network"), d.hostile.goodbyes());
      assertFalse(d.ours().isOpen());
      assertTrue(d.cause().isBan());
      assertEquals(CkbException.Reason.WRONG_NETWORK, d.cause().reason());

      d.connect();
      assertFalse(d.ours().isOpen(), "the same IP again: refused at once");
      assertEquals(CkbException.Reason.BANNED, lastCause(d).reason());
      d.clock.advance(Duration.ofSeconds(299));
      d.connect();
      assertFalse(d.ours().isOpen(), "still banned at 299 s");
      d.clock.advance(Duration.ofSeconds(1));
      d.connect();
      assertTrue(d.ours().isOpen(), "300 s later it may come back");
    }
  }

  private static CkbException lastCause(Duel d) {
    List<CkbEvent> closed = new ArrayList<>(d.events);
    closed.removeIf(e -> !(e instanceof CkbEvent.Closed));
    return ((CkbEvent.Closed) closed.get(closed.size() - 1)).cause();
  }

  private static byte[] identifyMessage(byte[] identify) {
    return IdentifyMessage.encode(List.of(), Multiaddr.parse("/ip4/127.0.0.1/tcp/1"), identify);
  }

  @ParameterizedTest
  @ValueSource(strings = {"flag 0", "not strict", "not utf-8"})
  void aBadIdentifyIsBanned(String what) {
    byte[] name = CkbNetwork.TESTNET.identifyName().getBytes();
    byte[] identify = switch (what) {
      case "flag 0" -> new Identify(0, CkbNetwork.TESTNET.identifyName(), "x").encode();
      case "not strict" -> Molecule.table(new byte[8], Molecule.fixvec(name), Molecule.fixvec(new byte[0]), new byte[4]);
      default -> Molecule.table(new byte[] {1, 0, 0, 0, 0, 0, 0, 0}, Molecule.fixvec(name), Molecule.fixvec(new byte[] {(byte) 0xff}));
    };
    for (boolean weDial : new boolean[] {true, false}) {
      try (Duel d = started(weDial)) {
        d.send(CkbProtocol.IDENTIFY, identifyMessage(identify));
        assertFalse(d.ours().isOpen(), d + ": " + what);
        assertTrue(d.cause().isBan(), d + ": " + what);
        assertTrue(d.config.banList().isBanned((weDial ? CkbPair.LISTENER_ADDRESS : CkbPair.DIALER_ADDRESS).getAddress()));
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"undecodable", "second message", "11 addresses"})
  void protocolViolationsDisconnectWithoutABan(String what) {
    for (boolean weDial : new boolean[] {true, false}) {
      try (Duel d = started(weDial)) {
        byte[] good = identifyMessage(new Identify(0x3f, CkbNetwork.TESTNET.identifyName(), "x").encode());
        switch (what) {
          case "undecodable" -> d.send(CkbProtocol.IDENTIFY, new byte[] {1, 2, 3});
          case "second message" -> {
            d.send(CkbProtocol.IDENTIFY, good);
            assertTrue(d.ours().isOpen());
            d.send(CkbProtocol.IDENTIFY, good);
          }
          default -> {
            List<Multiaddr> eleven = new ArrayList<>();
            for (int i = 1; i <= 11; i++) {
              eleven.add(Multiaddr.parse("/ip4/8.8.8." + i + "/tcp/8114"));
            }
            d.send(CkbProtocol.IDENTIFY, IdentifyMessage.encode(eleven, Multiaddr.parse("/ip4/127.0.0.1/tcp/1"),
                new Identify(0x3f, CkbNetwork.TESTNET.identifyName(), "x").encode()));
          }
        }
        assertFalse(d.ours().isOpen(), d + ": " + what);
        assertFalse(d.cause().isBan(), d + ": " + what);
        assertEquals(0, d.config.banList().size());
      }
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void eightSecondsOfSilenceDisconnect(boolean weDial) {
    try (Duel d = started(weDial)) {
      d.pair.advance(7);
      assertTrue(d.ours().isOpen(), "7 s");
      d.pair.advance(1);
      assertFalse(d.ours().isOpen(), "8 s");
      assertEquals(CkbException.Reason.IDENTIFY_TIMEOUT, d.cause().reason());
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aDialedPeerMustHaveTheRequiredFlagsAListeningOneNeedNot(boolean weDial) {
    try (Duel d = new Duel(weDial, b -> b.requiredFlags(IdentifyFlags.FULL_NODE_REQUIRED))) {
      d.connect();
      if (!weDial) {
        d.open(CkbProtocol.IDENTIFY);
      }
      d.hostile.identify(CkbNetwork.TESTNET.identifyName(), IdentifyFlags.DISCOVERY);
      d.pair.pump();
      assertEquals(!weDial, d.ours().isOpen(), d.toString());
      if (weDial) {
        assertEquals(CkbException.Reason.FLAGS_NOT_MET, d.cause().reason());
      } else {
        assertEquals(IdentifyFlags.DISCOVERY, d.session().getNow().identify().flags());
      }
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void thePeersRecordIsOnTheSession(boolean weDial) {
    try (Duel d = started(weDial)) {
      byte[] identify = new Identify(0x3e, CkbNetwork.TESTNET.identifyName(), "peer/2").encode();
      List<Multiaddr> listen = List.of(Multiaddr.parse("/ip4/8.8.8.8/tcp/8114"), Multiaddr.parse("/dns4/a.example/tcp/8114"));
      d.send(CkbProtocol.IDENTIFY, IdentifyMessage.encode(listen, Multiaddr.parse("/ip4/1.2.3.4/tcp/5"), identify));
      IdentifyRecord r = d.session().getNow().identify();
      assertEquals(new IdentifyRecord(CkbNetwork.TESTNET.identifyName(), 0x3e, "peer/2", listen,
          Multiaddr.parse("/ip4/1.2.3.4/tcp/5")), r);
      assertTrue(d.events.contains(new CkbEvent.Identified(r)));
      assertTrue(d.ours().isOpen());
    }
  }
}
