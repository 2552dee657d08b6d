package io.secio.ckb.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.ckb.chain.Checkpoint;
import io.secio.ckb.chain.HeaderChain;
import io.secio.ckb.header.Byte32;
import io.secio.ckb.header.ChainGenerator;
import io.secio.ckb.header.CompactTarget;
import io.secio.ckb.header.Header;
import io.secio.testsupport.ChildProcess;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A follower in another JVM is killed (SIGKILL) while it writes; the store it leaves holds every
 * batch it acknowledged, whole, and nothing half-written; a new follower resumes from it to the end.
 */
class StoreCrashTest {
  @TempDir
  Path dir;

  private static ChildProcess start(Path file, long seed) throws Exception {
    return ChildProcess.start("FollowerProcess " + file + " " + seed,
        List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), FollowerProcess.class.getName(),
            file.toString(), Long.toString(seed)),
        null, Map.of());
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3})
  void aKilledFollowerLosesNoAcknowledgedHeaderAndResumes(long seed) throws Exception {
    Path file = dir.resolve("headers.mv");
    Random random = new Random(seed);
    int acksBeforeKill = 1 + random.nextInt(FollowerProcess.HEADERS / FollowerProcess.BATCH - 2);
    String[] lastAck;
    try (ChildProcess follower = start(file, seed)) {
      lastAck = follower.awaitOut("acked \\d+ \\S+", acksBeforeKill).group().split(" ");
      follower.kill();
      assertTrue(follower.outLines().subList(0, acksBeforeKill).stream().allMatch(line -> line.startsWith("acked ")),
          follower::toString);
    }
    long acked = Long.parseLong(lastAck[1]);

    ChainGenerator generator = FollowerProcess.generator(seed);
    List<Header> chain = generator.chain(FollowerProcess.HEADERS);
    long held;
    try (HeaderStore store = HeaderStore.open(file, generator.consensus().genesisHash(), 2)) {
      held = checkWhole(store, chain, FollowerProcess.BATCH, "seed " + seed);
      assertTrue(held >= acked, "seed " + seed + ": acknowledged #" + acked + ", held #" + held);
      assertEquals(Byte32.parse(lastAck[2]), store.mainHash(acked).orElseThrow());
    }

    List<String> lines;
    try (ChildProcess resumed = start(file, seed)) {
      assertEquals(0, resumed.awaitExit(), resumed::toString);
      lines = resumed.outLines();
    }
    assertEquals("done", lines.get(lines.size() - 1));
    assertEquals("acked " + (held + FollowerProcess.BATCH) + " " + chain.get((int) held + FollowerProcess.BATCH).hash(),
        lines.get(0), "seed " + seed + ": the follower resumes after what is stored");
    try (HeaderStore store = HeaderStore.open(file, generator.consensus().genesisHash(), 2)) {
      assertEquals(FollowerProcess.HEADERS, checkWhole(store, chain, FollowerProcess.BATCH, "seed " + seed));
      HeaderChain reopened = HeaderChain.open(store, generator.consensus(), Clock.systemUTC(), Checkpoint.of(chain.get(0)));
      assertEquals(chain.get(FollowerProcess.HEADERS).hash(), reopened.tip().hash());
    }
  }

  /**
   * Walks the main chain from the tip to genesis: every header there, whole (its bytes hash to its
   * key), linked, with the right total difficulty, and nothing else stored, in whole batches of
   * {@code batch}. Returns the tip's number.
   */
  static long checkWhole(HeaderStore store, List<Header> chain, int batch, String seed) {
    BlockId tip = store.tip().orElseThrow();
    StoredHeader cursor = store.get(tip.number(), tip.hash()).orElseThrow();
    long tipNumber = cursor.number();
    BigInteger perBlock = CompactTarget.toDifficulty(ChainGenerator.EASY_COMPACT_TARGET);
    for (long n = tipNumber; n >= 0; n--) {
      assertEquals(store.mainHash(n).orElseThrow(), cursor.hash(), seed + " #" + n);
      assertEquals(chain.get((int) n), cursor.header(), seed + " #" + n);
      assertEquals(perBlock.multiply(BigInteger.valueOf(n + 1)), cursor.totalDifficulty(), seed + " #" + n);
      if (n > 0) {
        cursor = store.get(n - 1, cursor.header().parentHash()).orElseThrow();
      }
    }
    assertEquals(tipNumber + 1, store.headerCount(), seed + ": only the main chain is stored");
    assertEquals(0, tipNumber % batch, seed + ": whole batches only");
    assertTrue(store.mainHash(tipNumber + 1).isEmpty());
    return tipNumber;
  }
}
