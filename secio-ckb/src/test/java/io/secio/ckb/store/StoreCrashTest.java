package io.secio.ckb.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.ckb.chain.Checkpoint;
import io.secio.ckb.chain.HeaderChain;
import io.secio.ckb.header.Byte32;
import io.secio.ckb.header.ChainGenerator;
import io.secio.ckb.header.CompactTarget;
import io.secio.ckb.header.Header;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A follower in another JVM is killed (SIGKILL) while it writes; the store it leaves holds every
 * batch it acknowledged, whole, and nothing half-written; a new follower resumes from it to the end.
 */
class StoreCrashTest {
  /** Only guards against a hang; a run takes seconds. */
  private static final long GUARD_MINUTES = 5;

  @TempDir
  Path dir;

  private static Process start(Path file, long seed) throws Exception {
    return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), FollowerProcess.class.getName(),
        file.toString(), Long.toString(seed))
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3})
  void aKilledFollowerLosesNoAcknowledgedHeaderAndResumes(long seed) throws Exception {
    Path file = dir.resolve("headers.mv");
    Random random = new Random(seed);
    int acksBeforeKill = 1 + random.nextInt(FollowerProcess.HEADERS / FollowerProcess.BATCH - 2);
    Process follower = start(file, seed);
    String lastAck = null;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(follower.getInputStream(), StandardCharsets.UTF_8))) {
      for (int acks = 0; acks < acksBeforeKill; acks++) {
        lastAck = out.readLine();
        assertTrue(lastAck != null && lastAck.startsWith("acked "), "seed " + seed + ": " + lastAck);
      }
      follower.destroyForcibly();
      assertTrue(follower.waitFor(GUARD_MINUTES, TimeUnit.MINUTES));
    }
    long acked = Long.parseLong(lastAck.split(" ")[1]);

    ChainGenerator generator = FollowerProcess.generator(seed);
    List<Header> chain = generator.chain(FollowerProcess.HEADERS);
    long held;
    try (HeaderStore store = HeaderStore.open(file, generator.consensus().genesisHash(), 2)) {
      held = checkWhole(store, chain, seed);
      assertTrue(held >= acked, "seed " + seed + ": acknowledged #" + acked + ", held #" + held);
      assertEquals(Byte32.parse(lastAck.split(" ")[2]), store.mainHash(acked).orElseThrow());
    }

    Process resumed = start(file, seed);
    List<String> lines = new ArrayList<>();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(resumed.getInputStream(), StandardCharsets.UTF_8))) {
      out.lines().forEach(lines::add);
    }
    assertTrue(resumed.waitFor(GUARD_MINUTES, TimeUnit.MINUTES));
    assertEquals(0, resumed.exitValue(), lines.toString());
    assertEquals("done", lines.get(lines.size() - 1));
    assertEquals("acked " + (held + FollowerProcess.BATCH) + " " + chain.get((int) held + FollowerProcess.BATCH).hash(),
        lines.get(0), "seed " + seed + ": the follower resumes after what is stored");
    try (HeaderStore store = HeaderStore.open(file, generator.consensus().genesisHash(), 2)) {
      assertEquals(FollowerProcess.HEADERS, checkWhole(store, chain, seed));
      HeaderChain reopened = HeaderChain.open(store, generator.consensus(), Clock.systemUTC(), Checkpoint.of(chain.get(0)));
      assertEquals(chain.get(FollowerProcess.HEADERS).hash(), reopened.tip().hash());
    }
  }

  /**
   * Walks the main chain from the tip to genesis: every header there, whole (its bytes hash to its
   * key), linked, with the right total difficulty, and nothing else stored. Returns the tip's number.
   */
  private static long checkWhole(HeaderStore store, List<Header> chain, long seed) {
    BlockId tip = store.tip().orElseThrow();
    StoredHeader cursor = store.get(tip.number(), tip.hash()).orElseThrow();
    long tipNumber = cursor.number();
    BigInteger perBlock = CompactTarget.toDifficulty(ChainGenerator.EASY_COMPACT_TARGET);
    for (long n = tipNumber; n >= 0; n--) {
      assertEquals(store.mainHash(n).orElseThrow(), cursor.hash(), "seed " + seed + " #" + n);
      assertEquals(chain.get((int) n), cursor.header(), "seed " + seed + " #" + n);
      assertEquals(perBlock.multiply(BigInteger.valueOf(n + 1)), cursor.totalDifficulty(), "seed " + seed + " #" + n);
      if (n > 0) {
        cursor = store.get(n - 1, cursor.header().parentHash()).orElseThrow();
      }
    }
    assertEquals(tipNumber + 1, store.headerCount(), "seed " + seed + ": only the main chain is stored");
    assertEquals(0, tipNumber % FollowerProcess.BATCH, "seed " + seed + ": whole batches only");
    assertTrue(store.mainHash(tipNumber + 1).isEmpty());
    return tipNumber;
  }
}
