package io.secio.ckb.store;

import io.secio.ckb.CkbConfig;
import io.secio.ckb.CkbEvent;
import io.secio.ckb.HeaderSync;
import io.secio.ckb.LoopbackNodes;
import io.secio.ckb.chain.Checkpoint;
import io.secio.ckb.chain.HeaderFollower;
import io.secio.ckb.header.ChainGenerator;
import io.secio.multiaddr.Multiaddr;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.CountDownLatch;

/**
 * Test-only, run in its own JVM by {@link NetworkCrashTest}: a follower that dials a Java node and
 * follows its chain into a store, from whatever the store holds, printing {@code acked NUMBER HASH}
 * after each batch is stored (the event comes after the commit) and {@code done NUMBER HASH} once the
 * node has no more; then it exits.
 */
public final class NetworkFollowerProcess {
  private NetworkFollowerProcess() {}

  /**
   * Follows.
   *
   * @param args the store file, the chain's seed, the node's multiaddr, the clock in epoch millis
   * @throws Exception on any failure (the test sees the exit code)
   */
  public static void main(String[] args) throws Exception {
    ChainGenerator generator = NetworkCrashTest.generator(Long.parseLong(args[1]));
    Clock clock = Clock.fixed(Instant.ofEpochMilli(Long.parseLong(args[3])), ZoneOffset.UTC);
    CountDownLatch synced = new CountDownLatch(1);
    try (HeaderStore store = HeaderStore.open(Path.of(args[0]), generator.consensus().genesisHash(), 2);
        HeaderFollower follower = HeaderFollower.open(store, generator.consensus(), clock,
            Checkpoint.of(generator.genesis()));
        LoopbackNodes nodes = new LoopbackNodes()) {
      CkbConfig config = CkbConfig.builder(generator.consensus().network()).localAddresses(true)
          .headers(follower, HeaderSync.FOLLOW)
          .listener((session, event) -> {
            if (event instanceof CkbEvent.HeadersAccepted a && a.added() > 0) {
              System.out.println("acked " + a.tip().number() + " " + a.tip().hash());
            } else if (event instanceof CkbEvent.HeadersSynced s) {
              System.out.println("done " + s.tip().number() + " " + s.tip().hash());
              synced.countDown();
            } else if (event instanceof CkbEvent.Closed c && synced.getCount() > 0) {
              System.err.println("closed: " + c.cause());
              System.exit(1);
            }
            System.out.flush();
          })
          .build();
      nodes.dial(config, Multiaddr.parse(args[2]));
      synced.await();
    }
  }
}
