package io.secio.ckb;

import io.secio.ckb.chain.Checkpoint;
import io.secio.ckb.chain.HeaderFollower;
import io.secio.ckb.header.ChainGenerator;
import io.secio.ckb.header.Consensus;
import io.secio.ckb.header.Header;
import io.secio.ckb.header.Pow;
import io.secio.ckb.protocol.CkbNetwork;
import io.secio.ckb.store.HeaderStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * Test-only: a generated chain with real (easy) Eaglesong PoW, and followers holding part of it in a
 * real store. A follower's clock is fixed a minute after the chain's tip unless a test says otherwise.
 */
final class HeldChain implements AutoCloseable {
  static final ChainGenerator GENERATOR = new ChainGenerator(33, Pow.EAGLESONG, 100);
  static final List<Header> CHAIN = GENERATOR.chain(2500);
  static final Clock AFTER_TIP = at(CHAIN.get(CHAIN.size() - 1).timestamp() + 60_000);

  final HeaderStore store;
  final HeaderFollower follower;

  private HeldChain(Path file, Consensus consensus, List<Header> chain, Clock clock, int upTo, Executor worker)
      throws Exception {
    store = HeaderStore.open(file, consensus.genesisHash(), 2);
    follower = worker == null
        ? HeaderFollower.open(store, consensus, clock, Checkpoint.of(chain.get(0)))
        : HeaderFollower.open(store, consensus, clock, Checkpoint.of(chain.get(0)), worker);
    for (int from = 1; from <= upTo; from += 2000) {
      follower.accept(chain.subList(from, Math.min(from + 2000, upTo + 1))).join();
    }
  }

  /** A follower working on the caller's thread (for tests on a driven clock), holding {@link #CHAIN} 0 to {@code upTo}. */
  static HeldChain direct(Path file, Clock clock, int upTo) throws Exception {
    return new HeldChain(file, GENERATOR.consensus(), CHAIN, clock, upTo, Runnable::run);
  }

  /** A follower with a thread of its own, holding {@code chain} (genesis first) of a network with {@code consensus}. */
  static HeldChain threaded(Path file, Consensus consensus, List<Header> chain, Clock clock) throws Exception {
    return new HeldChain(file, consensus, chain, clock, chain.size() - 1, null);
  }

  static Clock at(long millis) {
    return Clock.fixed(Instant.ofEpochMilli(millis), ZoneOffset.UTC);
  }

  static CkbNetwork network() {
    return GENERATOR.consensus().network();
  }

  @Override
  public void close() {
    follower.close();
    store.close();
  }
}
