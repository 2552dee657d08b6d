package io.secio.ckb;

import io.secio.multiaddr.Multiaddr;
import java.util.List;

/**
 * A node as discovery describes it ({@code Node2}): its addresses (at most 3 in a message) and the
 * flags it announced ({@link IdentifyFlags}). Immutable.
 *
 * @param addresses where it listens
 * @param flags the services it offers; {@link IdentifyFlags#COMPATIBILITY} for an old {@code Node}
 */
public record Node(List<Multiaddr> addresses, long flags) {
  /** Copies the address list. */
  public Node {
    addresses = List.copyOf(addresses);
  }
}
