package io.secio.ckb;

import io.secio.ckb.message.DiscoveryMessage;
import io.secio.ckb.protocol.CkbException.Reason;
import io.secio.ckb.protocol.CkbException;
import io.secio.ckb.protocol.CkbProtocol;
import io.secio.ckb.protocol.Node;
import io.secio.multiaddr.Component;
import io.secio.multiaddr.MultiaddrProtocol;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.OptionalInt;

/**
 * {@code /ckb/discovery} as a node runs it ({@code discovery/{mod,protocol,state}.rs}). On a session
 * this side dialed it sends its one GetNodes: version 0 (a passive client: its address is not to be
 * announced), the configured count, the port of its first listen address only if it listens, and its
 * required flags. It answers the peer's one GetNodes with {@code Nodes{announce: false}} from the
 * address book (at most min(count, 1000) nodes whose flags pass the filter, one address each). It
 * disconnects a peer for an undecodable message, a second GetNodes, a second non-announce Nodes, more
 * than 1000 items (10 in an announcement), or an item with more than 3 addresses.
 */
final class DiscoveryHandler extends ProtocolHandler {
  static final int MAX_NODES = 1000;
  static final int MAX_ANNOUNCED_NODES = 10;
  static final int MAX_ADDRESSES_PER_NODE = 3;

  private boolean receivedGetNodes;
  private boolean receivedNodes;

  DiscoveryHandler(Peer peer) {
    super(peer, CkbProtocol.DISCOVERY);
  }

  @Override
  void onOpen() {
    if (!peer.isDialer()) {
      return;
    }
    CkbConfig config = peer.config();
    send(new DiscoveryMessage.GetNodes(0, config.getNodesCount(), listenPort(config), config.requiredFlags()).encode());
  }

  private static OptionalInt listenPort(CkbConfig config) {
    for (var address : config.listenAddrs()) {
      for (Component c : address.components()) {
        if (c.protocol() == MultiaddrProtocol.TCP) {
          return OptionalInt.of(Short.toUnsignedInt(ByteBuffer.wrap(c.value()).getShort()));
        }
      }
    }
    return OptionalInt.empty();
  }

  @Override
  void onMessage(byte[] message) {
    DiscoveryMessage m;
    try {
      m = DiscoveryMessage.decode(message);
    } catch (CkbException e) {
      disconnect(Reason.MALFORMED_MESSAGE, "invalid discovery message: " + e.getMessage());
      return;
    }
    if (m instanceof DiscoveryMessage.GetNodes getNodes) {
      answer(getNodes);
    } else {
      received((DiscoveryMessage.Nodes) m);
    }
  }

  private void answer(DiscoveryMessage.GetNodes getNodes) {
    if (receivedGetNodes) {
      disconnect(Reason.PROTOCOL_VIOLATION, "a second GetNodes");
      return;
    }
    receivedGetNodes = true;
    int count = (int) Math.min(getNodes.count(), MAX_NODES);
    List<Node> nodes = peer.config().addressBook().random(count, getNodes.requiredFlags());
    send(new DiscoveryMessage.Nodes(false, nodes).encode());
  }

  private void received(DiscoveryMessage.Nodes nodes) {
    int max = nodes.announce() ? MAX_ANNOUNCED_NODES : MAX_NODES;
    if (nodes.items().size() > max) {
      disconnect(Reason.PROTOCOL_VIOLATION, nodes.items().size() + " nodes, over " + max);
      return;
    }
    for (Node n : nodes.items()) {
      if (n.addresses().size() > MAX_ADDRESSES_PER_NODE) {
        disconnect(Reason.PROTOCOL_VIOLATION, "a node of " + n.addresses().size() + " addresses, over 3");
        return;
      }
    }
    if (!nodes.announce()) {
      if (receivedNodes) {
        disconnect(Reason.PROTOCOL_VIOLATION, "a second Nodes answer");
        return;
      }
      receivedNodes = true;
    }
    peer.nodesReceived(nodes.announce(), nodes.items());
  }
}
