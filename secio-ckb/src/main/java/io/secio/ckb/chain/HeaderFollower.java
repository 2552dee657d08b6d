package io.secio.ckb.chain;

import io.secio.ckb.header.Byte32;
import io.secio.ckb.header.Consensus;
import io.secio.ckb.header.Header;
import io.secio.ckb.header.HeaderException;
import io.secio.ckb.store.HeaderStore;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A {@link HeaderChain} that CKB sessions share ({@code CkbConfig.Builder.headers}): every session's
 * Sync asks its peer for headers and hands the batches here, and answers its peer's {@code
 * GetHeaders} from here. The chain is worked on by one thread of its own, never a connection's event
 * loop: a batch of 2000 headers takes tens of milliseconds of PoW checks and an fsync. Each call
 * returns a future completed on that thread.
 *
 * <pre>{@code
 * try (HeaderStore store = HeaderStore.open(file, consensus.genesisHash(), 16);
 *      HeaderFollower follower = HeaderFollower.open(store, consensus, Clock.systemUTC(), Checkpoint.genesis(consensus))) {
 *   CkbConfig config = CkbConfig.builder(network).headers(follower, HeaderSync.FOLLOW).build();
 *   ...
 * }
 * }</pre>
 *
 * <p>Thread-safe. The store stays the caller's: close the follower first, then the store.
 */
public final class HeaderFollower implements AutoCloseable {
  private final HeaderChain chain;
  private final Clock clock;
  private final Executor worker;
  private final ExecutorService ownThread;
  private volatile Tip tip;
  private volatile long tipTimestamp;

  private HeaderFollower(HeaderChain chain, Clock clock, Executor worker) {
    this.chain = chain;
    this.clock = clock;
    noteTip(chain.tip());
    if (worker == null) {
      this.ownThread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "ckb-headers");
        t.setDaemon(true);
        return t;
      });
      this.worker = ownThread;
    } else {
      this.ownThread = null;
      this.worker = worker;
    }
  }

  /**
   * A follower on {@code store}: resumed from what it holds, or started at {@code start} when it is
   * empty (see {@link HeaderChain#open}).
   *
   * @param store the store; it must stay open while the follower is
   * @param consensus the network's rules
   * @param clock the local clock (timestamps, the tip's age)
   * @param start where an empty store starts
   * @return the follower, its thread started
   * @throws IOException if the store cannot be written
   * @throws HeaderException if {@code start} is block 0 but not this network's genesis
   * @throws IllegalArgumentException if the store started elsewhere than {@code start}
   */
  public static HeaderFollower open(HeaderStore store, Consensus consensus, Clock clock, Checkpoint start)
      throws IOException, HeaderException {
    Objects.requireNonNull(clock, "clock");
    return new HeaderFollower(HeaderChain.open(store, consensus, clock, start), clock, null);
  }

  /**
   * As {@link #open(HeaderStore, Consensus, Clock, Checkpoint)}, the chain worked on by {@code
   * worker} rather than a thread of the follower's own: it must run the tasks it is given one at a
   * time, in order (a single-thread executor; the caller's thread, for tests that drive time). The
   * follower does not shut it down.
   *
   * @param store the store; it must stay open while the follower is
   * @param consensus the network's rules
   * @param clock the local clock
   * @param start where an empty store starts
   * @param worker runs the chain's work, one task at a time
   * @return the follower
   * @throws IOException if the store cannot be written
   * @throws HeaderException if {@code start} is block 0 but not this network's genesis
   */
  public static HeaderFollower open(HeaderStore store, Consensus consensus, Clock clock, Checkpoint start,
      Executor worker) throws IOException, HeaderException {
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(worker, "worker");
    return new HeaderFollower(HeaderChain.open(store, consensus, clock, start), clock, worker);
  }

  /** The network's rules. */
  public Consensus consensus() {
    return chain.consensus();
  }

  /** The clock the chain checks timestamps and the tip's age with. */
  public Clock clock() {
    return clock;
  }

  /** Where the chain started: genesis or a checkpoint. */
  public Checkpoint start() {
    return new Checkpoint(chain.base().hash(), chain.base().number(), Optional.empty());
  }

  /** The main chain's last block, as of the last batch stored. */
  public Tip tip() {
    return tip;
  }

  /**
   * Whether the chain is still in its initial block download, as a node judges itself: its tip is
   * more than 24 hours older than the clock (or its time is unknown: a checkpoint without its header).
   */
  public boolean inInitialBlockDownload() {
    return clock.millis() - tipTimestamp > HeaderChain.MAX_TIP_AGE_MILLIS;
  }

  /** On the follower's thread (or before it starts). */
  private void noteTip(Tip now) {
    tipTimestamp = chain.header(now.number(), now.hash()).map(s -> s.header().timestamp()).orElse(0L);
    tip = now;
  }

  /** The locator of a {@code GetHeaders} from the tip: newest first, genesis last. */
  public CompletableFuture<List<Byte32>> locator() {
    return call(HeaderChain::locator);
  }

  /**
   * Checks and stores one {@code SendHeaders} ({@link HeaderChain#accept}).
   *
   * @param headers the message's headers, in order
   * @return what was stored and what to ask next; fails with the {@link HeaderException} of the
   *     first header refused or the store's {@link IOException}, nothing of the batch stored then
   */
  public CompletableFuture<Acceptance> accept(List<Header> headers) {
    List<Header> batch = List.copyOf(headers);
    return submit(() -> {
      Acceptance a = chain.accept(batch);
      noteTip(a.tip());
      return a;
    });
  }

  /**
   * What to answer a peer's {@code GetHeaders} ({@link HeaderChain#answer}).
   *
   * @param locator the peer's locator, newest first
   * @param hashStop the hash to stop before; zero for none
   * @return the answer
   */
  public CompletableFuture<GetHeadersAnswer> answer(List<Byte32> locator, Byte32 hashStop) {
    List<Byte32> copy = List.copyOf(locator);
    return call(c -> c.answer(copy, hashStop));
  }

  /**
   * Runs {@code read} on the follower's thread with the chain: a consistent view between batches.
   * It must not keep the chain, and must not block.
   *
   * @param read what to compute from the chain
   * @param <T> its result
   * @return the result
   */
  public <T> CompletableFuture<T> call(Function<HeaderChain, T> read) {
    Objects.requireNonNull(read, "read");
    return submit(() -> read.apply(chain));
  }

  /** A task that may throw. */
  @FunctionalInterface
  private interface Task<T> {
    T run() throws Exception;
  }

  private <T> CompletableFuture<T> submit(Task<T> task) {
    CompletableFuture<T> result = new CompletableFuture<>();
    try {
      worker.execute(() -> {
        try {
          result.complete(task.run());
        } catch (Exception e) {
          result.completeExceptionally(e);
        }
      });
    } catch (RejectedExecutionException e) {
      result.completeExceptionally(new IllegalStateException("the header follower is closed", e));
    }
    return result;
  }

  /**
   * Stops the follower's own thread once the work already given is done (at most a minute); the
   * store stays open.
   */
  @Override
  public void close() {
    if (ownThread == null) {
      return;
    }
    ownThread.shutdown();
    try {
      ownThread.awaitTermination(1, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return "HeaderFollower{" + chain.consensus() + ", tip " + tip + "}";
  }
}
