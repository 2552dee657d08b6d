package io.secio.ckb.message;

import io.secio.ckb.CkbException;
import io.secio.molecule.Molecule;
import io.secio.molecule.MoleculeException;
import io.secio.multiaddr.Multiaddr;
import io.secio.multiaddr.MultiaddrException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code /ckb/identify}'s one message ({@code protocols.mol} {@code IdentifyMessage}): the sender's
 * listen addresses, the address it sees this side at, and its {@link Identify} as bytes. Read as a
 * node reads it ({@code identify/protocol.rs}): compatible molecule; an observed address that is not
 * a multiaddr fails; listen addresses that are not are skipped and counted. Immutable.
 *
 * @param listenAddrs the listen addresses that are multiaddrs
 * @param skippedListenAddrs how many listen addresses were not
 * @param observedAddr this side's address as the sender sees it
 * @param identify the {@link Identify} table, unchecked
 */
public record IdentifyMessage(List<Multiaddr> listenAddrs, int skippedListenAddrs, Multiaddr observedAddr,
    byte[] identify) {

  /** The message's bytes; the listen addresses are sent as given. */
  public static byte[] encode(List<Multiaddr> listenAddrs, Multiaddr observedAddr, byte[] identify) {
    byte[][] addresses = new byte[listenAddrs.size()][];
    for (int i = 0; i < addresses.length; i++) {
      addresses[i] = address(listenAddrs.get(i));
    }
    return Molecule.table(Molecule.dynvec(addresses), address(observedAddr), Molecule.fixvec(identify));
  }

  private static byte[] address(Multiaddr a) {
    return Molecule.table(Molecule.fixvec(a.toBytes()));
  }

  /**
   * Reads a peer's message.
   *
   * @throws CkbException {@code MALFORMED_MESSAGE} if it is not an IdentifyMessage or its observed
   *     address is not a multiaddr
   */
  public static IdentifyMessage decode(byte[] bytes) throws CkbException {
    try {
      CkbTypes.IDENTIFY_MESSAGE.verify(bytes, true);
    } catch (MoleculeException e) {
      throw Malformed.of("an IdentifyMessage", e);
    }
    Slice message = Slice.of(bytes);
    Slice listen = message.field(0);
    List<Multiaddr> addrs = new ArrayList<>();
    int skipped = 0;
    for (int i = 0; i < listen.fieldCount(); i++) {
      try {
        addrs.add(Multiaddr.read(listen.field(i).field(0).fixvecBody()));
      } catch (MultiaddrException e) {
        skipped++;
      }
    }
    Multiaddr observed;
    try {
      observed = Multiaddr.read(message.field(1).field(0).fixvecBody());
    } catch (MultiaddrException e) {
      throw Malformed.of("the observed address is not a multiaddr: " + e.getMessage());
    }
    return new IdentifyMessage(List.copyOf(addrs), skipped, observed, message.field(2).fixvecBody());
  }

  /** How many listen addresses the message held. */
  public int listenAddrCount() {
    return listenAddrs.size() + skippedListenAddrs;
  }
}
