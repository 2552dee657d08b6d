package io.secio.ckb.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.ckb.CkbNetwork;
import io.secio.ckb.IdentifyFlags;
import io.secio.ckb.Node;
import io.secio.ckb.testing.MoleculeExamples;
import io.secio.multiaddr.Multiaddr;
import java.util.HexFormat;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every molecule payload of {@code molecule-examples.json} this side speaks, decoded to its values
 * and encoded back byte for byte (the light-client messages are the header work's, its frames the
 * codecs'); and its multiaddrs both ways.
 */
class MessageVectorsTest {
  private static final String TESTNET = CkbNetwork.TESTNET.identifyName();

  @Test
  void everyPayloadExampleIsCovered() {
    Set<String> elsewhere = Set.of("get_last_state_subscribe", "get_last_state_no_subscribe",
        "send_last_state_layout_only", "frame_plain_ping_7", "frame_compress_codec_in_ibd", "frame_disconnect_message");
    Set<String> here = Set.of("identify_testnet", "identify_message_testnet", "identify_message_testnet_no_listen",
        "ping_7", "pong_7", "get_nodes2_crawler", "get_nodes2_listener", "nodes2_empty", "nodes2_one", "in_ibd",
        "get_headers_testnet_genesis", "send_headers_empty", "send_headers_testnet_1_2", "time");
    for (String name : MoleculeExamples.names()) {
      assertTrue(here.contains(name) ^ elsewhere.contains(name), name);
    }
  }

  @Test
  void identify() throws Exception {
    byte[] bytes = MoleculeExamples.bytes("identify_testnet");
    Identify id = Identify.decode(bytes);
    assertEquals(new Identify(0x3e, TESTNET, "example/0.0.1"), id);
    assertArrayEquals(bytes, id.encode());
  }

  @Test
  void identifyMessages() throws Exception {
    for (String name : List.of("identify_message_testnet", "identify_message_testnet_no_listen")) {
      byte[] bytes = MoleculeExamples.bytes(name);
      IdentifyMessage m = IdentifyMessage.decode(bytes);
      assertEquals(Multiaddr.parse("/ip4/127.0.0.1/tcp/52000"), m.observedAddr());
      assertArrayEquals(MoleculeExamples.bytes("identify_testnet"), m.identify());
      assertEquals(name.endsWith("no_listen") ? List.of() : List.of(Multiaddr.parse("/ip4/127.0.0.1/tcp/8115/ws")),
          m.listenAddrs());
      assertArrayEquals(bytes, IdentifyMessage.encode(m.listenAddrs(), m.observedAddr(), m.identify()), name);
    }
  }

  @Test
  void pingAndPong() throws Exception {
    assertEquals(PingMessage.ping(7), PingMessage.decode(MoleculeExamples.bytes("ping_7")));
    assertEquals(PingMessage.pong(7), PingMessage.decode(MoleculeExamples.bytes("pong_7")));
    assertArrayEquals(MoleculeExamples.bytes("ping_7"), PingMessage.ping(7).encode());
    assertArrayEquals(MoleculeExamples.bytes("pong_7"), PingMessage.pong(7).encode());
  }

  @Test
  void getNodes() throws Exception {
    DiscoveryMessage.GetNodes crawler = new DiscoveryMessage.GetNodes(0, 1000, OptionalInt.empty(),
        IdentifyFlags.FULL_NODE_REQUIRED);
    DiscoveryMessage.GetNodes listener = new DiscoveryMessage.GetNodes(1, 1000, OptionalInt.of(8115),
        IdentifyFlags.LIGHT_CLIENT_REQUIRED);
    assertEquals(crawler, DiscoveryMessage.decode(MoleculeExamples.bytes("get_nodes2_crawler")));
    assertEquals(listener, DiscoveryMessage.decode(MoleculeExamples.bytes("get_nodes2_listener")));
    assertArrayEquals(MoleculeExamples.bytes("get_nodes2_crawler"), crawler.encode());
    assertArrayEquals(MoleculeExamples.bytes("get_nodes2_listener"), listener.encode());
  }

  @Test
  void nodes() throws Exception {
    DiscoveryMessage.Nodes empty = new DiscoveryMessage.Nodes(false, List.of());
    DiscoveryMessage.Nodes one = new DiscoveryMessage.Nodes(false, List.of(new Node(List.of(Multiaddr.parse(
        "/ip4/18.217.146.65/tcp/8111/p2p/QmT6DFfm18wtbJz3y4aPNn3ac86N4d4p4xtfQRRPf73frC")), 0x3f)));
    assertEquals(empty, DiscoveryMessage.decode(MoleculeExamples.bytes("nodes2_empty")));
    assertEquals(one, DiscoveryMessage.decode(MoleculeExamples.bytes("nodes2_one")));
    assertArrayEquals(MoleculeExamples.bytes("nodes2_empty"), empty.encode());
    assertArrayEquals(MoleculeExamples.bytes("nodes2_one"), one.encode());
  }

  @Test
  void sync() throws Exception {
    byte[] inIbd = MoleculeExamples.bytes("in_ibd");
    assertInstanceOf(SyncMessage.InIbd.class, SyncMessage.decode(inIbd));
    assertArrayEquals(inIbd, new SyncMessage.InIbd().encode());

    byte[] getHeaders = MoleculeExamples.bytes("get_headers_testnet_genesis");
    SyncMessage.GetHeaders g = assertInstanceOf(SyncMessage.GetHeaders.class, SyncMessage.decode(getHeaders));
    assertArrayEquals(new byte[32], g.hashStop());
    assertEquals(1, g.locator().size());
    assertArrayEquals(CkbNetwork.TESTNET.genesisHash(), g.locator().get(0));
    assertArrayEquals(getHeaders, g.encode());

    for (String name : List.of("send_headers_empty", "send_headers_testnet_1_2")) {
      byte[] bytes = MoleculeExamples.bytes(name);
      SyncMessage.SendHeaders s = assertInstanceOf(SyncMessage.SendHeaders.class, SyncMessage.decode(bytes));
      assertEquals(name.endsWith("empty") ? 0 : 2, s.headers().size());
      s.headers().forEach(h -> assertEquals(208, h.length));
      assertArrayEquals(bytes, s.encode(), name);
    }
  }

  @Test
  void time() throws Exception {
    byte[] bytes = MoleculeExamples.bytes("time");
    assertEquals(new TimeMessage(1_700_000_000_000L), TimeMessage.decode(bytes));
    assertArrayEquals(bytes, new TimeMessage(1_700_000_000_000L).encode());
  }

  @Test
  void multiaddrsBothWays() throws Exception {
    for (String[] m : MoleculeExamples.multiaddrs()) {
      byte[] bytes = HexFormat.of().parseHex(m[1]);
      assertArrayEquals(bytes, Multiaddr.parse(m[0]).toBytes(), m[0]);
      assertEquals(m[0], Multiaddr.read(bytes).toString());
    }
  }
}
