package io.secio.ckb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.ckb.message.DiscoveryMessage;
import io.secio.multiaddr.Multiaddr;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Discovery's rules ({@code docs/CKB.md} §7): our dialer's one GetNodes (4 fields, version 0, the
 * count, a port only when listening, our required flags); the answer to a peer's GetNodes from the
 * address book (flags filtered, count capped); and the disconnects: a second GetNodes, a second
 * answer, over 1000 items (10 announced), over 3 addresses in an item, an undecodable message.
 */
class DiscoveryRulesTest {
  private static final Multiaddr A = Multiaddr.parse("/ip4/8.8.8.8/tcp/8114");

  private static Duel discovering(boolean weDial, java.util.function.UnaryOperator<CkbConfig.Builder> tweak) {
    Duel d = new Duel(weDial, tweak).identified();
    if (!weDial) {
      d.open(CkbProtocol.DISCOVERY);
      d.open(CkbProtocol.DISCONNECT_MESSAGE);
    }
    return d;
  }

  private static Node node(int addresses) {
    List<Multiaddr> list = new ArrayList<>();
    for (int i = 0; i < addresses; i++) {
      list.add(Multiaddr.parse("/ip4/8.8.4." + i + "/tcp/8114"));
    }
    return new Node(list, IdentifyFlags.FULL_NODE_REQUIRED);
  }

  private static List<Node> nodes(int count) {
    List<Node> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(node(1));
    }
    return out;
  }

  @Test
  void ourDialerSendsOneGetNodesAsAPassiveClient() throws CkbException {
    try (Duel d = discovering(true, b -> b.getNodesCount(500).requiredFlags(IdentifyFlags.DISCOVERY))) {
      List<byte[]> sent = d.hostile.take(CkbProtocol.DISCOVERY);
      assertEquals(1, sent.size());
      assertEquals(new DiscoveryMessage.GetNodes(0, 500, OptionalInt.empty(), IdentifyFlags.DISCOVERY),
          DiscoveryMessage.decode(sent.get(0)));
      assertEquals(48, sent.get(0).length, "the 4-field layout, no port");
    }
    try (Duel d = discovering(true, b -> b.listenAddrs(List.of(Multiaddr.parse("/ip4/1.2.3.4/tcp/8115/ws"))))) {
      DiscoveryMessage.GetNodes g = (DiscoveryMessage.GetNodes) DiscoveryMessage.decode(d.hostile.take(CkbProtocol.DISCOVERY).get(0));
      assertEquals(OptionalInt.of(8115), g.listenPort(), "a listener gives its port");
    }
  }

  @Test
  void ourListenerSendsNoGetNodes() {
    try (Duel d = discovering(false, b -> b)) {
      assertEquals(List.of(), d.hostile.take(CkbProtocol.DISCOVERY));
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aGetNodesIsAnsweredFromTheAddressBook(boolean weDial) throws CkbException {
    try (Duel d = discovering(weDial, b -> b)) {
      d.hostile.take(CkbProtocol.DISCOVERY);
      for (int i = 0; i < 5; i++) {
        d.config.addressBook().add(Multiaddr.parse("/ip4/8.8.8." + i + "/tcp/8114"), IdentifyFlags.FULL_NODE_REQUIRED);
      }
      d.config.addressBook().add(Multiaddr.parse("/ip4/9.9.9.9/tcp/8114"), IdentifyFlags.DISCOVERY);
      d.send(CkbProtocol.DISCOVERY, new DiscoveryMessage.GetNodes(1, 3, OptionalInt.empty(), IdentifyFlags.FULL_NODE_REQUIRED).encode());
      DiscoveryMessage.Nodes answer = assertInstanceOf(DiscoveryMessage.Nodes.class,
          DiscoveryMessage.decode(d.hostile.take(CkbProtocol.DISCOVERY).get(0)));
      assertFalse(answer.announce());
      assertEquals(3, answer.items().size(), "min(count, book)");
      answer.items().forEach(n -> {
        assertEquals(1, n.addresses().size());
        assertEquals(IdentifyFlags.FULL_NODE_REQUIRED, n.flags(), "DISCOVERY alone does not pass the filter");
      });
      d.send(CkbProtocol.DISCOVERY, new DiscoveryMessage.GetNodes(1, 3, OptionalInt.empty(), IdentifyFlags.DISCOVERY).encode());
      assertFalse(d.ours().isOpen(), "a second GetNodes");
      assertEquals(CkbException.Reason.PROTOCOL_VIOLATION, d.cause().reason());
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void theAnswerAndAnnouncementsReachTheSession(boolean weDial) {
    try (Duel d = discovering(weDial, b -> b)) {
      DiscoveryMessage.Nodes answer = new DiscoveryMessage.Nodes(false, List.of(new Node(List.of(A), 0x3f)));
      d.send(CkbProtocol.DISCOVERY, answer.encode());
      d.send(CkbProtocol.DISCOVERY, new DiscoveryMessage.Nodes(true, nodes(10)).encode());
      CkbSession s = d.session().getNow();
      assertEquals(answer.items(), s.nodes().getNow());
      assertEquals(11, s.discoveredNodes().size());
      assertTrue(d.events.contains(new CkbEvent.NodesReceived(false, answer.items())));
      assertTrue(d.ours().isOpen());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"second answer", "1001 items", "11 announced", "4 addresses", "undecodable"})
  void violationsDisconnect(String what) {
    for (boolean weDial : new boolean[] {true, false}) {
      try (Duel d = discovering(weDial, b -> b)) {
        byte[] message = switch (what) {
          case "second answer" -> {
            d.send(CkbProtocol.DISCOVERY, new DiscoveryMessage.Nodes(false, nodes(1)).encode());
            assertTrue(d.ours().isOpen());
            yield new DiscoveryMessage.Nodes(false, nodes(1)).encode();
          }
          case "1001 items" -> new DiscoveryMessage.Nodes(false, nodes(1001)).encode();
          case "11 announced" -> new DiscoveryMessage.Nodes(true, nodes(11)).encode();
          case "4 addresses" -> new DiscoveryMessage.Nodes(false, List.of(node(4))).encode();
          default -> new byte[] {8, 0, 0, 0, 0, 0, 0, 0};
        };
        d.send(CkbProtocol.DISCOVERY, message);
        assertFalse(d.ours().isOpen(), d + ": " + what);
        assertFalse(d.cause().isBan());
        assertEquals(1, d.hostile.goodbyes().size(), "the reason first");
      }
    }
  }

  @Test
  void aThousandItemsAndThreeAddressesAreAllowed() {
    try (Duel d = discovering(true, b -> b)) {
      List<Node> items = nodes(999);
      items.add(node(3));
      d.send(CkbProtocol.DISCOVERY, new DiscoveryMessage.Nodes(false, items).encode());
      assertTrue(d.ours().isOpen());
      assertEquals(1000, d.session().getNow().nodes().getNow().size());
    }
  }
}
