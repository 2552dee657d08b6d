package io.secio.ckb.message;

import io.secio.ckb.CkbException;
import io.secio.ckb.IdentifyFlags;
import io.secio.ckb.Node;
import io.secio.molecule.Molecule;
import io.secio.molecule.MoleculeException;
import io.secio.multiaddr.Multiaddr;
import io.secio.multiaddr.MultiaddrException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * {@code /ckb/discovery}'s messages ({@code protocols.mol} {@code DiscoveryMessage}), written in the
 * layouts every writer uses ({@code GetNodes2}, {@code Nodes2}/{@code Node2} under union ids 0 and 1)
 * and read as a node reads them ({@code discovery/protocol.rs}): compatible molecule; the extra field
 * of a GetNodes or Node is read as its required flags or flags (COMPATIBILITY when absent); an
 * announce byte other than 0 or 1, or an address that is not a multiaddr, fails the message.
 */
public sealed interface DiscoveryMessage {

  /**
   * A request for addresses.
   *
   * @param version 0 (a passive client) or 1 (the sender's address may be announced)
   * @param count how many addresses it wants
   * @param listenPort the port the sender listens on, if it does
   * @param requiredFlags the flags the returned nodes must have
   */
  record GetNodes(long version, long count, OptionalInt listenPort, long requiredFlags) implements DiscoveryMessage {
    @Override
    public byte[] encode() {
      byte[] port = listenPort.isPresent() ? Encoding.uint16(listenPort.getAsInt()) : new byte[0];
      return message(CkbTypes.GET_NODES, Molecule.table(Encoding.uint32(version), Encoding.uint32(count), port,
          Encoding.uint64(requiredFlags)));
    }
  }

  /**
   * Addresses: the answer to GetNodes, or an announcement.
   *
   * @param announce whether it is an announcement (at most 10 items) rather than the answer
   * @param items the nodes
   */
  record Nodes(boolean announce, List<Node> items) implements DiscoveryMessage {
    /** Copies the items. */
    public Nodes {
      items = List.copyOf(items);
    }

    @Override
    public byte[] encode() {
      byte[][] nodes = new byte[items.size()][];
      for (int i = 0; i < nodes.length; i++) {
        Node n = items.get(i);
        byte[][] addresses = new byte[n.addresses().size()][];
        for (int j = 0; j < addresses.length; j++) {
          addresses[j] = Molecule.fixvec(n.addresses().get(j).toBytes());
        }
        nodes[i] = Molecule.table(Molecule.dynvec(addresses), Encoding.uint64(n.flags()));
      }
      return message(CkbTypes.NODES, Molecule.table(new byte[] {(byte) (announce ? 1 : 0)}, Molecule.dynvec(nodes)));
    }
  }

  /** The message's bytes. */
  byte[] encode();

  private static byte[] message(int id, byte[] item) {
    return Molecule.table(Encoding.union(id, item));
  }

  /**
   * Reads a peer's message.
   *
   * @throws CkbException {@code MALFORMED_MESSAGE} if a node could not decode it
   */
  static DiscoveryMessage decode(byte[] bytes) throws CkbException {
    try {
      CkbTypes.DISCOVERY_MESSAGE.verify(bytes, true);
    } catch (MoleculeException e) {
      throw Malformed.of("a DiscoveryMessage", e);
    }
    Slice payload = Slice.of(bytes).field(0);
    Slice item = payload.unionItem();
    return payload.unionId() == CkbTypes.GET_NODES ? getNodes(item) : nodes(item);
  }

  private static GetNodes getNodes(Slice t) throws CkbException {
    Slice port = t.field(2);
    long required = IdentifyFlags.COMPATIBILITY;
    if (t.fieldCount() > 3) {
      required = extraField(CkbTypes.GET_NODES2, t, 3, "a GetNodes2");
    }
    return new GetNodes(t.field(0).u32(), t.field(1).u32(),
        port.isEmpty() ? OptionalInt.empty() : OptionalInt.of(port.u16()), required);
  }

  private static Nodes nodes(Slice t) throws CkbException {
    int announce = t.field(0).u8();
    if (announce > 1) {
      throw Malformed.of("a Nodes announce byte of " + announce);
    }
    Slice items = t.field(1);
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < items.fieldCount(); i++) {
      Slice node = items.field(i);
      Slice addresses = node.field(0);
      List<Multiaddr> addrs = new ArrayList<>();
      for (int j = 0; j < addresses.fieldCount(); j++) {
        try {
          addrs.add(Multiaddr.read(addresses.field(j).fixvecBody()));
        } catch (MultiaddrException e) {
          throw Malformed.of("a node address is not a multiaddr: " + e.getMessage());
        }
      }
      long flags = node.fieldCount() > 1 ? extraField(CkbTypes.NODE2, node, 1, "a Node2") : IdentifyFlags.COMPATIBILITY;
      nodes.add(new Node(addrs, flags));
    }
    return new Nodes(announce == 1, nodes);
  }

  /** A table with extra fields read as its longer layout (compatible), whose field {@code at} is a Uint64. */
  private static long extraField(MoleculeType layout, Slice table, int at, String what) throws CkbException {
    byte[] bytes = table.toBytes();
    try {
      layout.verify(bytes, true);
    } catch (MoleculeException e) {
      throw Malformed.of(what, e);
    }
    return Slice.of(bytes).field(at).u64();
  }
}
