package io.secio.ckb;

import io.secio.multiaddr.Multiaddr;
import java.util.List;

/**
 * What a peer said of itself in its Identify, once this side accepted it: its network, flags and
 * client version, the addresses it listens on (those that are multiaddrs and, unless {@link
 * CkbConfig#localAddresses()}, globally reachable) and the address it sees this side at. Immutable.
 *
 * @param name the identify name, equal to this side's network's
 * @param flags the services it offers ({@link IdentifyFlags})
 * @param clientVersion its software and version, as it says
 * @param listenAddrs where it listens, at most 10
 * @param observedAddr this side's address as the peer sees it
 */
public record IdentifyRecord(String name, long flags, String clientVersion, List<Multiaddr> listenAddrs,
    Multiaddr observedAddr) {
  /** Copies the addresses. */
  public IdentifyRecord {
    listenAddrs = List.copyOf(listenAddrs);
  }

  @Override
  public String toString() {
    return "IdentifyRecord{" + name + ", " + IdentifyFlags.describe(flags) + ", '" + clientVersion + "', listen="
        + listenAddrs + ", observed=" + observedAddr + "}";
  }
}
