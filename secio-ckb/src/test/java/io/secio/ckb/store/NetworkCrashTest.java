package io.secio.ckb.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.ckb.CkbConfig;
import io.secio.ckb.HeaderSync;
import io.secio.ckb.LoopbackNodes;
import io.secio.ckb.chain.Checkpoint;
import io.secio.ckb.chain.HeaderFollower;
import io.secio.ckb.header.ChainGenerator;
import io.secio.ckb.header.Header;
import io.secio.ckb.header.Pow;
import io.secio.multiaddr.Multiaddr;
import io.secio.testsupport.ChildProcess;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A follower in another JVM dials a Java node over secio on loopback and follows its 20,000 headers
 * (easy Eaglesong PoW); it is killed (SIGKILL) after a random number of stored batches, while the next
 * is under way. The store it leaves holds every batch it acknowledged, whole; a new follower process
 * resumes from it, asks the node from the stored tip, and finishes with the node's tip.
 */
class NetworkCrashTest {
  static final int HEADERS = 20_000;
  static final int BATCH = 2000;

  @TempDir
  Path dir;

  static ChainGenerator generator(long seed) {
    return new ChainGenerator(seed, Pow.EAGLESONG, 1000);
  }

  private static ChildProcess start(Path file, long seed, Multiaddr node, long clockMillis) throws Exception {
    return ChildProcess.start("NetworkFollowerProcess " + file + " " + seed + " " + node,
        List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), NetworkFollowerProcess.class.getName(),
            file.toString(), Long.toString(seed), node.toString(), Long.toString(clockMillis)),
        null, Map.of());
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {11, 12})
  void aKilledNetworkFollowerResumesFromItsStoreToTheNodesTip(long seed) throws Exception {
    ChainGenerator generator = generator(seed);
    List<Header> chain = generator.chain(HEADERS);
    long clockMillis = chain.get(HEADERS).timestamp() + 60_000;
    Clock clock = Clock.fixed(Instant.ofEpochMilli(clockMillis), ZoneOffset.UTC);
    Path file = dir.resolve("follower.mv");
    try (HeaderStore nodeStore = HeaderStore.open(dir.resolve("node.mv"), generator.consensus().genesisHash(), 4);
        HeaderFollower node = HeaderFollower.open(nodeStore, generator.consensus(), clock, Checkpoint.of(chain.get(0)));
        LoopbackNodes nodes = new LoopbackNodes()) {
      for (int from = 1; from <= HEADERS; from += BATCH) {
        node.accept(chain.subList(from, from + BATCH)).join();
      }
      Multiaddr address = nodes.listen(CkbConfig.builder(generator.consensus().network()).localAddresses(true)
          .headers(node, HeaderSync.SERVE).build());

      int acksBeforeKill = 1 + new Random(seed).nextInt(HEADERS / BATCH - 2);
      String[] lastAck;
      try (ChildProcess follower = start(file, seed, address, clockMillis)) {
        lastAck = follower.awaitOut("acked \\d+ \\S+", acksBeforeKill).group().split(" ");
        follower.kill();
        assertTrue(follower.outLines().subList(0, acksBeforeKill).stream().allMatch(line -> line.startsWith("acked ")),
            follower::toString);
      }
      long acked = Long.parseLong(lastAck[1]);
      long held;
      try (HeaderStore store = HeaderStore.open(file, generator.consensus().genesisHash(), 2)) {
        held = StoreCrashTest.checkWhole(store, chain, BATCH, "seed " + seed);
        assertTrue(held >= acked, "seed " + seed + ": acknowledged #" + acked + ", held #" + held);
        assertTrue(held < HEADERS, "seed " + seed + ": killed before the end");
      }

      List<String> lines;
      try (ChildProcess resumed = start(file, seed, address, clockMillis)) {
        assertEquals(0, resumed.awaitExit(), resumed::toString);
        lines = resumed.outLines();
      }
      assertEquals("acked " + (held + BATCH) + " " + chain.get((int) held + BATCH).hash(), lines.get(0),
          "seed " + seed + ": the follower asks from what is stored");
      assertEquals("done " + HEADERS + " " + chain.get(HEADERS).hash(), lines.get(lines.size() - 1));
      try (HeaderStore store = HeaderStore.open(file, generator.consensus().genesisHash(), 2)) {
        assertEquals(HEADERS, StoreCrashTest.checkWhole(store, chain, BATCH, "seed " + seed));
      }
    }
  }
}
