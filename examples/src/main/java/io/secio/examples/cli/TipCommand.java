package io.secio.examples.cli;

import io.secio.ckb.CkbConfig;
import io.secio.ckb.CkbEvent;
import io.secio.ckb.CkbSession;
import io.secio.ckb.header.Header;
import io.secio.ckb.lightclient.VerifiableHeader;
import io.secio.ckb.protocol.IdentifyFlags;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code secio ckb tip ADDR --network NETWORK}: dials a node that serves light clients (flag
 * LIGHT_CLIENT), sends one {@code GetLastState} on {@code /ckb/lightclient}, checks the tip it
 * answers as CKB's light client does (PoW by the network's rule, chain root, extra hash, at most 24
 * hours old) and prints {@code tip NUMBER HASH epoch=.. timestamp=.. total_difficulty=..}; a tip that
 * fails prints {@code refused header #NUMBER HASH: RULE: ..} and exits 1, as does a node that does
 * not serve light clients or does not answer within the timeout.
 */
@Command(name = "tip", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Asks a CKB node for its tip as a light client does (one GetLastState).",
        "Checks it as CKB's light client does: PoW, chain root, extra hash, at most 24 h",
        "old. Prints 'tip NUMBER HASH epoch=.. timestamp=.. total_difficulty=..', or",
        "'refused ..' (exit 1)."})
final class TipCommand implements Callable<Integer> {
  static final String GOODBYE = "tip done";

  @Spec
  private CommandSpec spec;

  @Mixin
  private NodeTarget node;

  @Override
  public Integer call() throws InterruptedException {
    Duration timeout = node.timeout(spec);
    BlockingQueue<CkbEvent> events = new LinkedBlockingQueue<>();
    // One answer is all this waits for: asking again is left to the timeout.
    CkbConfig config = CkbConfig.builder(node.network()).requiredFlags(IdentifyFlags.LIGHT_CLIENT)
        .subscribeLastState(node.consensus(spec), timeout)
        .listener((session, event) -> events.add(event)).build();
    return node.dial(spec, config, session -> answer(session, events, timeout));
  }

  private int answer(CkbSession session, BlockingQueue<CkbEvent> events, Duration timeout)
      throws InterruptedException, TimeoutException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      CkbEvent event = events.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (event == null) {
        throw new TimeoutException("no SendLastState within " + timeout.toSeconds() + " s");
      } else if (event instanceof CkbEvent.LastStateReceived received) {
        spec.commandLine().getOut().println(line(received.tip(), received.totalDifficulty()));
        session.disconnect(GOODBYE).await(timeout.toMillis());
        return 0;
      } else if (event instanceof CkbEvent.LastStateRefused refused) {
        spec.commandLine().getOut().println("refused " + refused.cause().getMessage());
        session.disconnect(GOODBYE).await(timeout.toMillis());
        return SecioCli.EXIT_FAILURE;
      } else if (event instanceof CkbEvent.Closed closed) {
        return node.failed(spec, closed.cause());
      }
    }
  }

  /** {@code tip NUMBER HASH epoch=E(I/L) timestamp=ISO total_difficulty=0x..}. */
  static String line(VerifiableHeader tip, BigInteger totalDifficulty) {
    Header h = tip.header();
    return "tip " + Long.toUnsignedString(h.number()) + " " + h.hash() + " epoch=" + h.epoch() + " timestamp="
        + Instant.ofEpochMilli(h.timestamp()) + " total_difficulty=0x" + totalDifficulty.toString(16);
  }
}
