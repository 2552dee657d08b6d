package io.secio.examples.cli;

import io.secio.ckb.CkbConfig;
import io.secio.ckb.HeaderSync;
import io.secio.ckb.LoopbackNodes;
import io.secio.ckb.chain.Checkpoint;
import io.secio.ckb.chain.HeaderFollower;
import io.secio.ckb.header.ChainGenerator;
import io.secio.ckb.header.Header;
import io.secio.ckb.store.HeaderStore;
import io.secio.multiaddr.Multiaddr;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * Test-only: a Java CKB node in this JVM on loopback (secio, tentacle's dialect), holding part of a
 * generated chain in a real header store, serving its headers over Sync and its tip over LightClient
 * with the flags it is given. The chain's network is a dev network named by its genesis.
 */
final class JavaCkbNode implements AutoCloseable {
  final List<Header> chain;
  final String network;
  final Multiaddr address;
  private final HeaderStore store;
  private final HeaderFollower follower;
  private final LoopbackNodes nodes = new LoopbackNodes();

  /** Holds {@code chain} 0 to {@code upTo} in {@code file}; announces {@code flags}. */
  JavaCkbNode(Path file, ChainGenerator generator, List<Header> chain, int upTo, long flags) throws Exception {
    this.chain = chain;
    this.network = generator.consensus().network().toString();
    this.store = HeaderStore.open(file, generator.consensus().genesisHash(), 4);
    this.follower = HeaderFollower.open(store, generator.consensus(), Clock.systemUTC(), Checkpoint.of(chain.get(0)));
    grow(upTo);
    this.address = nodes.listen(CkbConfig.builder(generator.consensus().network()).localAddresses(true).flags(flags)
        .headers(follower, HeaderSync.SERVE).serveLastState(follower).build());
  }

  /** Takes the chain's blocks up to {@code upTo}, in full batches. */
  void grow(int upTo) {
    for (long from = follower.tip().number() + 1; from <= upTo; from += 2000) {
      follower.accept(chain.subList((int) from, (int) Math.min(from + 2000, upTo + 1))).join();
    }
  }

  /** Block {@code n}'s line as {@code secio ckb follow} ends: {@code tip NUMBER HASH}. */
  String tip(int n) {
    return "tip " + n + " " + chain.get(n).hash();
  }

  @Override
  public void close() {
    nodes.close();
    follower.close();
    store.close();
  }
}
