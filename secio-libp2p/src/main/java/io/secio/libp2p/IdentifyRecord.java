package io.secio.libp2p;

import io.secio.PeerId;
import io.secio.identity.IdentityPublicKey;
import io.secio.multiaddr.Multiaddr;
import java.util.List;

/**
 * A peer's identify record ({@code /ipfs/id/1.0.0}, {@code docs/STREAMS.md} §10), checked: its
 * public key is the one whose peer id the secure channel authenticated.
 *
 * @param peerId the peer id of {@code publicKey} (the secure channel's remote peer)
 * @param publicKey the peer's key
 * @param protocolVersion e.g. {@code ipfs/0.1.0}; empty when absent
 * @param agentVersion e.g. {@code js-libp2p/0.29.4}; empty when absent
 * @param protocols the protocols the peer serves
 * @param listenAddrs where the peer listens
 * @param observedAddr where the peer sees this side, or {@code null}
 */
public record IdentifyRecord(PeerId peerId, IdentityPublicKey publicKey, String protocolVersion, String agentVersion,
    List<String> protocols, List<Multiaddr> listenAddrs, Multiaddr observedAddr) {
  /** A record; the lists are copied. */
  public IdentifyRecord {
    protocols = List.copyOf(protocols);
    listenAddrs = List.copyOf(listenAddrs);
  }

  @Override
  public String toString() {
    return "IdentifyRecord(peer " + peerId.toBase58() + ", " + publicKey.type() + " key, protocolVersion "
        + protocolVersion + ", agentVersion " + agentVersion + ", protocols " + protocols + ", listenAddrs "
        + listenAddrs + ", observedAddr " + observedAddr + ")";
  }
}
