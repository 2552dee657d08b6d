package io.secio.ckb.store;

import io.secio.ckb.chain.Checkpoint;
import io.secio.ckb.chain.HeaderChain;
import io.secio.ckb.header.ChainGenerator;
import io.secio.ckb.header.Header;
import io.secio.ckb.header.Pow;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

/**
 * Test-only, run in its own JVM by {@link StoreCrashTest}: follows a generated chain into a store,
 * from whatever the store holds, one batch at a time, printing {@code acked NUMBER HASH} after each
 * committed batch and {@code done} at the end.
 */
public final class FollowerProcess {
  static final int HEADERS = 4000;
  static final int BATCH = 400;

  private FollowerProcess() {}

  static ChainGenerator generator(long seed) {
    return new ChainGenerator(seed, Pow.DUMMY, 100);
  }

  /**
   * Follows into a store.
   *
   * @param args the store file, the chain's seed
   * @throws Exception on any failure (the test sees the exit code)
   */
  public static void main(String[] args) throws Exception {
    ChainGenerator generator = generator(Long.parseLong(args[1]));
    List<Header> chain = generator.chain(HEADERS);
    Clock clock = Clock.fixed(Instant.ofEpochMilli(chain.get(HEADERS).timestamp()), ZoneOffset.UTC);
    try (HeaderStore store = HeaderStore.open(Path.of(args[0]), generator.consensus().genesisHash(), 2)) {
      HeaderChain follower = HeaderChain.open(store, generator.consensus(), clock, Checkpoint.of(chain.get(0)));
      for (long next = follower.tip().number() + 1; next <= HEADERS; next += BATCH) {
        follower.accept(chain.subList((int) next, (int) Math.min(next + BATCH, HEADERS + 1)));
        System.out.println("acked " + follower.tip().number() + " " + follower.tip().hash());
        System.out.flush();
      }
    }
    System.out.println("done");
  }
}
