package io.secio.examples.cli;

import io.secio.ckb.CkbConfig;
import io.secio.ckb.CkbEvent;
import io.secio.ckb.CkbSession;
import io.secio.ckb.HeaderSync;
import io.secio.ckb.chain.Checkpoint;
import io.secio.ckb.chain.HeaderFollower;
import io.secio.ckb.chain.Tip;
import io.secio.ckb.header.Consensus;
import io.secio.ckb.header.HeaderException;
import io.secio.ckb.protocol.IdentifyFlags;
import io.secio.ckb.store.HeaderStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code secio ckb follow ADDR --network NETWORK --store DIR [--checkpoint HASH:NUMBER]}: dials a node
 * and follows its header chain over Sync into a header store in DIR, every header checked, until the
 * node has no more; then prints {@code verified N headers, tip NUMBER HASH} (N: the headers this run
 * checked and stored) and says goodbye. A store resumes from what it holds. On a terminal, progress
 * (headers, rate, tip) is redrawn on stderr as batches are stored. Exits 1 if the node cannot be
 * reached, sends a header that breaks a rule (it is banned for it), says it is in its initial block
 * download, or is silent for the timeout.
 */
@Command(name = "follow", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Follows a CKB node's headers over Sync into a store, each one checked.",
        "Ends when the node has no more: 'verified N headers, tip NUMBER HASH' (N: the",
        "headers this run checked and stored). On a terminal, progress as batches come."})
final class FollowCommand implements Callable<Integer> {
  static final String GOODBYE = "follow done";
  /** The store's file in {@code --store}. */
  static final String STORE_FILE = "headers.mv";

  @Spec
  private CommandSpec spec;

  @ParentCommand
  private CkbCommand ckb;

  @Mixin
  private NodeTarget node;

  @Option(names = "--store", required = true, paramLabel = "DIR",
      description = "The header store's directory (created if missing; its file is " + STORE_FILE + ").")
  private Path store;

  @Option(names = "--checkpoint", paramLabel = "HASH:NUMBER", converter = CheckpointConverter.class,
      description = "Start an empty store at this block, which you trust, rather than genesis; a store that "
          + "holds headers resumes from its own start.")
  private Checkpoint checkpoint;

  @Override
  public Integer call() throws InterruptedException {
    node.timeout(spec);
    Consensus consensus = node.consensus(spec);
    HeaderStore headers = openStore(consensus);
    if (headers == null) {
      return SecioCli.EXIT_FAILURE;
    }
    try (headers; HeaderFollower follower = openFollower(headers, consensus)) {
      BlockingQueue<CkbEvent> events = new LinkedBlockingQueue<>();
      CkbConfig config = CkbConfig.builder(node.network()).requiredFlags(IdentifyFlags.SYNC)
          .headers(follower, HeaderSync.FOLLOW).listener((session, event) -> events.add(event)).build();
      return node.dial(spec, config, session -> follow(session, events));
    }
  }

  private HeaderStore openStore(Consensus consensus) {
    try {
      Files.createDirectories(store);
      return HeaderStore.open(store.resolve(STORE_FILE), consensus.genesisHash(), HeaderStore.DEFAULT_CACHE_MEGABYTES);
    } catch (IOException e) {
      spec.commandLine().getErr().println(spec.qualifiedName() + ": " + store + ": " + Report.reason(e));
      return null;
    }
  }

  /** From {@code --checkpoint}, else where the store started, else genesis. */
  private HeaderFollower openFollower(HeaderStore headers, Consensus consensus) {
    Checkpoint start = checkpoint != null ? checkpoint
        : headers.base().map(b -> new Checkpoint(b.hash(), b.number(), Optional.empty()))
            .orElse(Checkpoint.genesis(consensus));
    try {
      return HeaderFollower.open(headers, consensus, Clock.systemUTC(), start);
    } catch (IllegalArgumentException | HeaderException e) {
      throw new ParameterException(spec.commandLine(), "--checkpoint: " + e.getMessage());
    } catch (IOException e) {
      throw new IllegalStateException(store + ": " + Report.reason(e), e);
    }
  }

  /** Until the node has no more headers: progress as they come, then the final line. */
  private int follow(CkbSession session, BlockingQueue<CkbEvent> events) throws InterruptedException, TimeoutException {
    try (HeaderProgress progress = new HeaderProgress(ckb.cli().isTerminal() ? ckb.cli().err() : null)) {
      long verified = 0;
      while (true) {
        CkbEvent event = events.poll(node.timeoutSeconds, TimeUnit.SECONDS);
        if (event == null) {
          throw new TimeoutException("no headers within " + node.timeoutSeconds + " s");
        } else if (event instanceof CkbEvent.HeadersAccepted accepted) {
          verified += accepted.added();
          progress.update(verified, accepted.tip());
        } else if (event instanceof CkbEvent.HeadersSynced synced) {
          progress.close();
          Tip tip = synced.tip();
          spec.commandLine().getOut().println("verified " + verified + " headers, tip "
              + Long.toUnsignedString(tip.number()) + " " + tip.hash());
          session.disconnect(GOODBYE).await(node.timeoutSeconds, TimeUnit.SECONDS);
          return 0;
        } else if (event instanceof CkbEvent.Closed closed) {
          return node.failed(spec, closed.cause());
        }
      }
    }
  }

  /** {@code HASH:NUMBER}. */
  static final class CheckpointConverter implements ITypeConverter<Checkpoint> {
    @Override
    public Checkpoint convert(String value) {
      try {
        return Checkpoint.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
