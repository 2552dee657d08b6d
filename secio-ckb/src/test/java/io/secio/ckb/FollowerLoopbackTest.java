package io.secio.ckb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.ckb.chain.HeaderFollower;
import io.secio.ckb.chain.Tip;
import io.secio.ckb.header.ChainGenerator;
import io.secio.ckb.header.CompactTarget;
import io.secio.ckb.header.Header;
import io.secio.ckb.header.Pow;
import io.secio.multiaddr.Multiaddr;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A Java follower and Java nodes serving header chains, on real loopback sockets with secio: the
 * follower syncs a chain of 5000 real-shaped headers (easy Eaglesong PoW, three batches) into its
 * store whoever dials; and with two nodes on competing forks it keeps the one with the most total
 * difficulty (here the shorter one), whichever it hears first.
 */
class FollowerLoopbackTest {
  private static final Duration HANG_GUARD = Duration.ofMinutes(3);
  private static final ChainGenerator GENERATOR = new ChainGenerator(44, Pow.EAGLESONG, 100);
  private static final List<Header> CHAIN = GENERATOR.chain(5000);
  private static final BigInteger PER_BLOCK = BigInteger.valueOf(16);

  @TempDir
  Path dir;
  @RegisterExtension
  final Closing closing = new Closing();

  private HeaderFollower holding(List<Header> chain, Clock clock) throws Exception {
    return closing.keep(HeldChain.threaded(dir.resolve("node" + closing.size() + ".mv"), GENERATOR.consensus(), chain, clock)).follower;
  }

  private static Clock after(List<Header> chain) {
    return HeldChain.at(chain.get(chain.size() - 1).timestamp() + 60_000);
  }

  private static CkbConfig node(HeaderFollower chain) {
    return CkbConfig.builder(GENERATOR.consensus().network()).localAddresses(true)
        .headers(chain, HeaderSync.SERVE).build();
  }

  @ParameterizedTest(name = "the follower dials: {0}")
  @ValueSource(booleans = {true, false})
  void followsANodesChainIntoItsStoreWhoeverDials(boolean followerDials) {
    assertTimeoutPreemptively(HANG_GUARD, () -> {
      Clock clock = after(CHAIN);
      HeaderFollower node = holding(CHAIN, clock);
      HeaderFollower follower = holding(CHAIN.subList(0, 1), clock);
      CkbConfig.Builder b = CkbConfig.builder(GENERATOR.consensus().network()).localAddresses(true)
          .headers(follower, HeaderSync.FOLLOW);
      BlockingQueue<CkbEvent> heard = LoopbackNodes.events(b);
      CkbConfig followerConfig = b.build();
      LoopbackNodes nodes = closing.keep(new LoopbackNodes());
      if (followerDials) {
        nodes.dial(followerConfig, nodes.listen(node(node)));
      } else {
        nodes.dial(node(node), nodes.listen(followerConfig));
      }

      List<Integer> batches = new ArrayList<>();
      CkbEvent.HeadersSynced synced;
      while (true) {
        CkbEvent.HeadersAccepted batch = LoopbackNodes.next(heard, CkbEvent.HeadersAccepted.class);
        batches.add(batch.added());
        if (batch.tip().number() == 5000) {
          synced = LoopbackNodes.next(heard, CkbEvent.HeadersSynced.class);
          break;
        }
      }
      assertEquals(List.of(2000, 2000, 1000), batches);
      Tip tip = new Tip(CHAIN.get(5000).hash(), 5000, PER_BLOCK.multiply(BigInteger.valueOf(5001)));
      assertEquals(tip, synced.tip());
      assertEquals(tip, follower.tip());
      for (int n : new int[] {1, 1999, 2000, 2001, 4321, 5000}) {
        assertEquals(CHAIN.get(n), follower.call(c -> c.mainHeader(n).orElseThrow().header()).join());
      }
    });
  }

  @ParameterizedTest(name = "the heavier fork first: {0}")
  @ValueSource(booleans = {true, false})
  void keepsTheForkWithTheMostTotalDifficultyNotTheLongest(boolean heavierFirst) {
    assertTimeoutPreemptively(HANG_GUARD, () -> {
      ChainGenerator generator = new ChainGenerator(45, Pow.EAGLESONG, 100);
      List<Header> base = generator.chain(1000);
      List<Header> longer = new ArrayList<>(base);
      longer.addAll(generator.extend(base.get(1000), 1500));
      List<Header> heavier = new ArrayList<>(base);
      heavier.addAll(generator.extend(base.get(1000), 1200, CompactTarget.fromDifficulty(BigInteger.valueOf(32))));
      BigInteger heavierWork = PER_BLOCK.multiply(BigInteger.valueOf(1100)).add(BigInteger.valueOf(32 * 1101));
      assertTrue(heavierWork.compareTo(PER_BLOCK.multiply(BigInteger.valueOf(2501))) > 0, "the shorter fork is heavier");

      Clock clock = HeldChain.at(Math.max(longer.get(2500).timestamp(), heavier.get(2200).timestamp()) + 60_000);
      HeaderFollower follower = closing.keep(HeldChain.threaded(dir.resolve("follower.mv"), generator.consensus(),
          base.subList(0, 1), clock)).follower;
      CkbConfig.Builder b = CkbConfig.builder(generator.consensus().network()).localAddresses(true)
          .headers(follower, HeaderSync.FOLLOW);
      BlockingQueue<CkbEvent> heard = LoopbackNodes.events(b);
      CkbConfig followerConfig = b.build();
      LoopbackNodes nodes = closing.keep(new LoopbackNodes());
      List<List<Header>> order = heavierFirst ? List.of(heavier, longer) : List.of(longer, heavier);
      for (List<Header> fork : order) {
        HeaderFollower node = closing.keep(HeldChain.threaded(dir.resolve("fork" + closing.size() + ".mv"), generator.consensus(),
            fork, clock)).follower;
        nodes.dial(followerConfig, nodes.listen(CkbConfig.builder(generator.consensus().network())
            .localAddresses(true).headers(node, HeaderSync.SERVE).build()));
        Header forkTip = fork.get(fork.size() - 1);
        while (!follower.call(c -> c.header(forkTip.number(), forkTip.hash()).isPresent()).join()) {
          LoopbackNodes.next(heard, CkbEvent.HeadersSynced.class);
        }
      }
      assertEquals(new Tip(heavier.get(2200).hash(), 2200, heavierWork), follower.tip());
      assertEquals(longer.get(2500), follower.call(c -> c.header(2500, longer.get(2500).hash()).orElseThrow().header())
          .join(), "the lighter fork is kept too, as a side branch");
    });
  }
}
