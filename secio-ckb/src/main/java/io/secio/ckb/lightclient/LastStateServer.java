package io.secio.ckb.lightclient;

import io.secio.ckb.chain.HeaderChain;
import io.secio.ckb.chain.Tip;
import io.secio.ckb.header.Byte32;
import io.secio.ckb.header.Ckbhash;
import io.secio.ckb.header.Header;
import io.secio.ckb.store.StoredHeader;
import java.util.Optional;

/**
 * A light-client server's {@code SendLastState} from a chain of headers, without I/O: the tip as a
 * {@link VerifiableHeader}. A header store holds neither uncles nor extensions, so what it can serve
 * is what headers alone determine:
 *
 * <ul>
 *   <li>the parent chain root: the {@link ChainRoot} over the main chain's blocks 0 to tip − 1, so
 *       the chain must start at its genesis header;
 *   <li>a tip before the network's chain-root activation: no extension, uncles hash = the header's
 *       extra hash (what it is for a block without an extension);
 *   <li>a tip after it: the extension is exactly ckbhash(parent chain root), the uncles hash zero,
 *       served only if the header's extra hash is what those give (a block without uncles whose
 *       extension is only the chain root, as a dev chain mined that way has).
 * </ul>
 *
 * Anything else is not served. The root is kept for the main chain and extended block by block; when
 * the main chain switches below what it covers, it is rebuilt from genesis.
 *
 * <p>Not thread-safe: call it on the chain's thread ({@code HeaderFollower.call}).
 */
public final class LastStateServer {
  private ChainRoot root = new ChainRoot();
  private Byte32 lastLeaf;

  /** A server with nothing computed yet. */
  public LastStateServer() {}

  /**
   * The tip of {@code chain} as a server sends it.
   *
   * @param chain the chain, read on its thread
   * @return the tip, or empty if this chain's tip cannot be served (see the class)
   */
  public Optional<VerifiableHeader> lastState(HeaderChain chain) {
    Tip tip = chain.tip();
    if (chain.base().number() != 0) {
      return Optional.empty();
    }
    Optional<StoredHeader> tipHeader = chain.header(tip.number(), tip.hash());
    if (tipHeader.isEmpty() || !extendTo(chain, tip.number() - 1)) {
      return Optional.empty();
    }
    Header header = tipHeader.get().header();
    HeaderDigest parentRoot = root.root();
    if (!chain.consensus().hasChainRoot(header.epoch()) || header.isGenesis()) {
      return Optional.of(new VerifiableHeader(header, header.extraHash(), Optional.empty(), parentRoot));
    }
    byte[] extension = parentRoot.mmrHash().toBytes();
    if (!Byte32.of(Ckbhash.hash(Byte32.ZERO.toBytes(), Ckbhash.hash(extension))).equals(header.extraHash())) {
      return Optional.empty();
    }
    return Optional.of(new VerifiableHeader(header, Byte32.ZERO, Optional.of(extension), parentRoot));
  }

  /** Makes the root cover the main chain's blocks 0 to {@code last}; false if one is not held. */
  private boolean extendTo(HeaderChain chain, long last) {
    long covered = root.size() - 1;
    boolean stillMain = covered >= 0 && covered <= last
        && chain.mainHeader(covered).map(h -> h.hash().equals(lastLeaf)).orElse(false);
    if (!stillMain && root.size() > 0) {
      root = new ChainRoot();
      lastLeaf = null;
    }
    for (long n = root.size(); n <= last; n++) {
      Optional<StoredHeader> next = chain.mainHeader(n);
      if (next.isEmpty()) {
        root = new ChainRoot();
        lastLeaf = null;
        return false;
      }
      root.push(next.get().header());
      lastLeaf = next.get().hash();
    }
    return true;
  }
}
