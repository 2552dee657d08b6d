package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.ckb.header.ChainGenerator;
import io.secio.ckb.header.Header;
import io.secio.ckb.header.Pow;
import io.secio.ckb.protocol.IdentifyFlags;
import io.secio.ckb.store.HeaderStore;
import io.secio.testsupport.ChildProcess;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code secio ckb follow} and {@code secio ckb tip} as processes against a Java node in this JVM
 * ({@link JavaCkbNode}) holding a chain with real (easy) Eaglesong proofs of work whose headers commit
 * to their chain roots: a follow from genesis into a store, resumed; one from a checkpoint; a node
 * whose headers fail the rule given is refused; the verified tip, a stale one refused, a node that
 * does not serve light clients; bad arguments; progress on a terminal.
 */
class CkbHeadersCliIT {
  private static final long SERVES = IdentifyFlags.DISCOVERY | IdentifyFlags.SYNC | IdentifyFlags.LIGHT_CLIENT;
  /** A chain a follower on the real clock takes: 4800 blocks 6 to 10 s apart, all over 6 hours old. */
  private static final long RECENT_GENESIS = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(20))
      .toEpochMilli();
  private static final ChainGenerator GENERATOR = new ChainGenerator(71, Pow.EAGLESONG, 500, RECENT_GENESIS);
  private static final List<Header> CHAIN = GENERATOR.chainWithRoots(4800);

  @RegisterExtension
  final Processes processes = new Processes();
  @TempDir
  Path dir;
  private final List<AutoCloseable> nodes = new ArrayList<>();

  @AfterEach
  void closeNodes() throws Exception {
    for (AutoCloseable n : nodes) {
      n.close();
    }
  }

  private JavaCkbNode node(ChainGenerator generator, List<Header> chain, int upTo, long flags) throws Exception {
    JavaCkbNode node = new JavaCkbNode(dir.resolve("node" + nodes.size() + ".mv"), generator, chain, upTo, flags);
    nodes.add(node);
    return node;
  }

  private ChildProcess follow(JavaCkbNode node, String store, String... more) throws Exception {
    List<String> args = new ArrayList<>(List.of("ckb", "follow", node.address.toString(), "--network", node.network,
        "--pow", "Eaglesong", "--store", dir.resolve(store).toString()));
    args.addAll(List.of(more));
    return processes.secio(args.toArray(String[]::new));
  }

  @Test
  void followVerifiesANodesChainIntoItsStoreAndResumesFromIt() throws Exception {
    JavaCkbNode node = node(GENERATOR, CHAIN, 4500, SERVES);
    ChildProcess first = follow(node, "store");
    assertEquals(0, first.awaitExit(), first::toString);
    assertEquals("verified 4500 headers, " + node.tip(4500), last(first), first::toString);

    node.grow(4800);
    ChildProcess second = follow(node, "store");
    assertEquals(0, second.awaitExit(), second::toString);
    assertEquals("verified 300 headers, " + node.tip(4800), last(second), "asked from what the store holds");
    assertFalse(second.toString().contains("\r"), "no progress line without a terminal");
    try (HeaderStore store = HeaderStore.open(dir.resolve("store").resolve(FollowCommand.STORE_FILE),
        GENERATOR.consensus().genesisHash(), 2)) {
      assertEquals(CHAIN.get(4800).hash(), store.tip().orElseThrow().hash());
      assertEquals(CHAIN.get(2345).hash(), store.mainHash(2345).orElseThrow());
    }
  }

  @Test
  void followStartsAtACheckpointAndTheStoreKeepsIt() throws Exception {
    JavaCkbNode node = node(GENERATOR, CHAIN, 4500, SERVES);
    String checkpoint = CHAIN.get(3000).hash() + ":3000";
    ChildProcess fromCheckpoint = follow(node, "store", "--checkpoint", checkpoint);
    assertEquals(0, fromCheckpoint.awaitExit(), fromCheckpoint::toString);
    assertEquals("verified 1500 headers, " + node.tip(4500), last(fromCheckpoint));

    ChildProcess again = follow(node, "store");
    assertEquals(0, again.awaitExit(), again::toString);
    assertEquals("verified 0 headers, " + node.tip(4500), last(again), "resumed from the store's own start");

    ChildProcess elsewhere = follow(node, "store", "--checkpoint", CHAIN.get(2000).hash() + ":2000");
    assertEquals(SecioCli.EXIT_USAGE, elsewhere.awaitExit(), elsewhere::toString);
    elsewhere.awaitErr("secio ckb follow: --checkpoint: the store started at #3000 .*");
  }

  @Test
  void followBansANodeWhoseHeadersFailTheRule() throws Exception {
    JavaCkbNode node = node(GENERATOR, CHAIN, 300, SERVES);
    ChildProcess p = processes.secio("ckb", "follow", node.address.toString(), "--network", node.network,
        "--pow", "EaglesongBlake2b", "--store", dir.resolve("store").toString());
    assertEquals(SecioCli.EXIT_FAILURE, p.awaitExit(), p::toString);
    p.awaitErr("failed " + Pattern.quote(node.address.toString()) + " INVALID_HEADER: Ban for 300 seconds, reason: "
        + "HeadersIsInvalid\\(415\\): header #\\d+ 0x\\w+: POW: .*");
  }

  @Test
  void tipPrintsTheNodesVerifiedTip() throws Exception {
    JavaCkbNode node = node(GENERATOR, CHAIN, 120, SERVES);
    ChildProcess p = processes.secio("ckb", "tip", node.address.toString(), "--network", node.network, "--pow", "eaglesong");
    assertEquals(0, p.awaitExit(), p::toString);
    Header tip = CHAIN.get(120);
    assertEquals(node.tip(120) + " epoch=" + tip.epoch() + " timestamp=" + Instant.ofEpochMilli(tip.timestamp())
        + " total_difficulty=0x" + Long.toHexString(16 * 121), last(p));
  }

  @Test
  void tipRefusesATipOverADayOld() throws Exception {
    ChainGenerator old = new ChainGenerator(72, Pow.EAGLESONG, 500, RECENT_GENESIS - Duration.ofDays(2).toMillis());
    List<Header> chain = old.chainWithRoots(40);
    JavaCkbNode node = node(old, chain, 40, SERVES);
    ChildProcess p = processes.secio("ckb", "tip", node.address.toString(), "--network", node.network, "--pow", "eaglesong");
    assertEquals(SecioCli.EXIT_FAILURE, p.awaitExit(), p::toString);
    assertEquals("refused header #40 " + chain.get(40).hash() + ": TIP_TOO_OLD: ", last(p).replaceAll(": [^:]*$", ": "));
  }

  @Test
  void tipNeedsANodeThatServesLightClients() throws Exception {
    JavaCkbNode node = node(GENERATOR, CHAIN, 10, IdentifyFlags.DISCOVERY | IdentifyFlags.SYNC);
    ChildProcess p = processes.secio("ckb", "tip", node.address.toString(), "--network", node.network);
    assertEquals(SecioCli.EXIT_FAILURE, p.awaitExit(), p::toString);
    p.awaitErr("failed " + Pattern.quote(node.address.toString()) + " FLAGS_NOT_MET: .*");
  }

  @Test
  void badArgumentsExit2() throws Exception {
    ChildProcess powOnTestnet = processes.secio("ckb", "tip", "127.0.0.1:1", "--network", "testnet", "--pow", "dummy");
    ChildProcess badPow = processes.secio("ckb", "tip", "127.0.0.1:1", "--network", "testnet", "--pow", "sha256");
    ChildProcess noStore = processes.secio("ckb", "follow", "127.0.0.1:1", "--network", "testnet");
    ChildProcess badCheckpoint = processes.secio("ckb", "follow", "127.0.0.1:1", "--network", "testnet", "--store",
        dir.resolve("s").toString(), "--checkpoint", "0x12:5");
    for (ChildProcess p : new ChildProcess[] {powOnTestnet, badPow, noStore, badCheckpoint}) {
      assertEquals(SecioCli.EXIT_USAGE, p.awaitExit(), p::toString);
      assertEquals(1, p.errLines().size(), p::toString);
    }
    powOnTestnet.awaitErr("secio ckb tip: --pow is for dev networks; /ckb_testnet/10639e08 has its own rule .*");
  }

  @Test
  void followDrawsItsProgressOnATerminal() throws Exception {
    JavaCkbNode node = node(GENERATOR, CHAIN, 4000, SERVES);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = SecioCli.run(new SecioCli(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), new ByteArrayInputStream(new byte[0]), true),
        "ckb", "follow", node.address.toString(), "--network", node.network, "--pow", "Eaglesong",
        "--store", dir.resolve("store").toString());
    String drawn = err.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, drawn);
    assertTrue(Pattern.compile("^\\rheaders 2000  \\d+ headers/s  tip 2000 " + Pattern.quote(
        CHAIN.get(2000).hash().toString().substring(0, 10)) + "…").matcher(drawn).find(), drawn);
    assertTrue(drawn.endsWith("\r"), "the line erased: " + drawn);
    assertEquals("verified 4000 headers, " + node.tip(4000) + "\n", out.toString(StandardCharsets.UTF_8));
  }

  private static String last(ChildProcess p) {
    List<String> lines = p.outLines();
    return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
  }
}
