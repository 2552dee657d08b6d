package io.secio.ckb.chain;

import io.secio.ckb.header.Byte32;
import io.secio.ckb.header.CompactTarget;
import io.secio.ckb.header.Consensus;
import io.secio.ckb.header.Header;
import io.secio.ckb.header.HeaderException;
import io.secio.ckb.header.HeaderRule;
import io.secio.ckb.header.HeaderVerifier;
import io.secio.ckb.header.MedianTimeWindow;
import io.secio.ckb.store.BlockId;
import io.secio.ckb.store.HeaderStore;
import io.secio.ckb.store.StoredHeader;
import java.io.IOException;
import java.math.BigInteger;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A header follower's core, without I/O: it keeps a {@link HeaderStore} of verified headers and
 * answers the Sync protocol's questions in plain values. The Sync glue sends {@link #locator()} in
 * a {@code GetHeaders}, hands every {@code SendHeaders} to {@link #accept}, asks again with
 * {@link Acceptance#nextLocator()} while batches are full, and answers a peer's {@code GetHeaders}
 * with {@link #answer}.
 *
 * <p>A batch (at most 2000 headers, each the child of the one before) is checked whole before any of
 * it is stored, then stored in one atomic write. Its first header may extend any stored header:
 * every branch is kept with its total difficulty, and the main chain is the one with the most (the
 * first seen on a tie).
 *
 * <p>Not thread-safe: one caller at a time (the glue's event loop).
 */
public final class HeaderChain {
  /** The most headers a {@code SendHeaders} may hold. */
  public static final int MAX_HEADERS = 2000;
  /** A tip older than this means still syncing (CKB's {@code MAX_TIP_AGE}): answer {@code InIBD}. */
  public static final long MAX_TIP_AGE_MILLIS = 24 * 60 * 60 * 1000L;

  private final HeaderStore store;
  private final Consensus consensus;
  private final HeaderVerifier verifier;
  private final Clock clock;
  private final BlockId base;
  private final RecentMainChain recent = new RecentMainChain();

  private HeaderChain(HeaderStore store, Consensus consensus, Clock clock, BlockId base) {
    this.store = store;
    this.consensus = consensus;
    this.verifier = new HeaderVerifier(consensus, clock);
    this.clock = clock;
    this.base = base;
  }

  /**
   * A follower on {@code store}: resumed from what it holds, or started at {@code start} when it is
   * empty.
   *
   * @param store the store
   * @param consensus the network's rules
   * @param clock the local clock
   * @param start where to start an empty store
   * @return the follower
   * @throws IOException if the store cannot be written
   * @throws HeaderException if {@code start} is block 0 but not this network's genesis
   * @throws IllegalArgumentException if the store started elsewhere than {@code start}
   */
  public static HeaderChain open(HeaderStore store, Consensus consensus, Clock clock, Checkpoint start)
      throws IOException, HeaderException {
    Objects.requireNonNull(start, "start");
    Optional<BlockId> held = store.base();
    BlockId base = new BlockId(start.hash(), start.number());
    if (held.isPresent()) {
      if (!held.get().equals(base)) {
        throw new IllegalArgumentException("the store started at " + held.get() + ", not at " + base);
      }
      HeaderChain chain = new HeaderChain(store, consensus, clock, base);
      chain.recent.reload(chain.tip().number(), base.number(), chain::mainHash);
      return chain;
    }
    HeaderChain chain = new HeaderChain(store, consensus, clock, base);
    if (start.number() == 0 && !start.hash().equals(consensus.genesisHash())) {
      throw new HeaderException(HeaderRule.GENESIS, 0, start.hash(), "not the genesis of " + consensus.network());
    }
    try (HeaderStore.Batch batch = store.batch()) {
      if (start.header().isPresent()) {
        Header header = start.header().get();
        // Genesis's own work counts, as in CKB; a checkpoint's work before it is unknown.
        batch.put(new StoredHeader(header, start.number() == 0 ? difficulty(header) : BigInteger.ZERO));
      }
      batch.setBase(base).setMain(base.number(), base.hash()).setTip(base).commit();
    }
    chain.recent.reload(base.number(), base.number(), chain::mainHash);
    return chain;
  }

  /** The network's rules. */
  public Consensus consensus() {
    return consensus;
  }

  /** Where this follower started. */
  public BlockId base() {
    return base;
  }

  /** The main chain's last block. */
  public Tip tip() {
    BlockId tip = store.tip().orElseThrow();
    return store.get(tip.number(), tip.hash())
        .map(s -> new Tip(tip.hash(), tip.number(), s.totalDifficulty()))
        .orElseGet(() -> new Tip(tip.hash(), tip.number(), BigInteger.ZERO));
  }

  /**
   * The header numbered {@code number} with {@code hash}, on any branch, if held.
   *
   * @param number the block number
   * @param hash the block hash
   * @return the header and its total difficulty
   */
  public Optional<StoredHeader> header(long number, Byte32 hash) {
    return store.get(number, hash);
  }

  /**
   * The main chain's block {@code number}, if held.
   *
   * @param number the block number
   * @return the header and its total difficulty
   */
  public Optional<StoredHeader> mainHeader(long number) {
    return store.mainHash(number).flatMap(hash -> store.get(number, hash));
  }

  /** The locator of a {@code GetHeaders} from the tip: newest first, genesis last. */
  public List<Byte32> locator() {
    return Locator.build(tip().number(), this::mainHash, base.number(), consensus.genesisHash());
  }

  private Byte32 mainHash(long number) {
    return store.mainHash(number).orElseThrow();
  }

  /**
   * Checks and stores one {@code SendHeaders}.
   *
   * @param headers the message's headers, in order
   * @return what was stored and what to ask next
   * @throws HeaderException naming the first header that breaks a rule (nothing of the batch is
   *     stored then): more than 2000 headers, a header not the child of the one before, a first
   *     header whose parent is unknown, or any rule of {@link HeaderVerifier}
   * @throws IOException if the store cannot be written (nothing of the batch is kept)
   */
  public Acceptance accept(List<Header> headers) throws HeaderException, IOException {
    Tip before = tip();
    if (headers.isEmpty()) {
      return new Acceptance(0, 0, before, false, Optional.empty(), Optional.empty());
    }
    if (headers.size() > MAX_HEADERS) {
      throw new HeaderException(HeaderRule.BATCH_TOO_LONG, headers.get(MAX_HEADERS),
          headers.size() + " headers in one SendHeaders, more than " + MAX_HEADERS);
    }
    for (int i = 1; i < headers.size(); i++) {
      if (!headers.get(i).parentHash().equals(headers.get(i - 1).hash())) {
        throw new HeaderException(HeaderRule.PARENT, headers.get(i), "the batch is not continuous");
      }
    }
    Branch branch = branchBelow(headers.get(0));
    List<StoredHeader> fresh = new ArrayList<>();
    Optional<HeaderException> deferred = Optional.empty();
    for (Header header : headers) {
      Optional<StoredHeader> known = fresh.isEmpty() ? store.get(header.number(), header.hash()) : Optional.empty();
      if (known.isPresent()) {
        branch.extend(known.get());
        continue;
      }
      try {
        branch.verify(header);
      } catch (HeaderException e) {
        if (!e.rule().isTemporary()) {
          throw e;
        }
        deferred = Optional.of(e);
        break;
      }
      StoredHeader stored = new StoredHeader(header, branch.totalDifficulty.add(difficulty(header)));
      fresh.add(stored);
      branch.extend(stored);
    }
    boolean moved = store(fresh, before);
    Optional<List<Byte32>> next = Optional.empty();
    if (headers.size() == MAX_HEADERS && deferred.isEmpty()) {
      next = Optional.of(locatorFrom(headers.get(headers.size() - 1)));
    }
    return new Acceptance(headers.size(), fresh.size(), tip(), moved, next, deferred);
  }

  /**
   * What to answer a peer's {@code GetHeaders}, as a CKB node does: the main chain's headers after
   * the newest locator block on it, at most 2000, stopping before {@code hashStop}; {@code InIBD}
   * while the tip is more than 24 hours old, or when no locator block is our start or one of the main
   * chain's last 20,000 blocks (the store has no index by hash; such a peer is far behind and a CKB
   * node serves it better). Unlike a CKB node, a locator block on a side branch we hold does not
   * count: the answer starts from an older common block, which the peer takes as well.
   *
   * @param locator the peer's locator, newest first
   * @param hashStop the hash to stop before; zero for none
   * @return the answer
   */
  public GetHeadersAnswer answer(List<Byte32> locator, Byte32 hashStop) {
    if (locator.size() > Locator.MAX_HASHES) {
      return new GetHeadersAnswer.Refused("a locator of " + locator.size() + " hashes, more than 101");
    }
    Tip tip = tip();
    Optional<StoredHeader> tipHeader = store.get(tip.number(), tip.hash());
    if (tipHeader.isEmpty() || clock.millis() - tipHeader.get().header().timestamp() > MAX_TIP_AGE_MILLIS) {
      return new GetHeadersAnswer.InIbd();
    }
    if (locator.isEmpty() || !locator.get(locator.size() - 1).equals(consensus.genesisHash())) {
      return new GetHeadersAnswer.Refused("the locator does not end with the genesis hash");
    }
    Optional<Long> common = locator.stream().map(this::mainNumber).filter(Objects::nonNull).findFirst();
    if (common.isEmpty()) {
      return new GetHeadersAnswer.InIbd();
    }
    List<Header> out = new ArrayList<>();
    long last = Math.min(common.get() + MAX_HEADERS, tipHeader.get().number());
    for (long n = common.get() + 1; n <= last; n++) {
      Byte32 hash = store.mainHash(n).orElseThrow();
      if (hash.equals(hashStop)) {
        break;
      }
      out.add(store.get(n, hash).orElseThrow().header());
    }
    return new GetHeadersAnswer.Headers(out);
  }

  /** The number of a main-chain block among the recent ones or our start; null otherwise. */
  private Long mainNumber(Byte32 hash) {
    return hash.equals(base.hash()) ? Long.valueOf(base.number()) : recent.number(hash);
  }

  /** The locator from {@code header}, which may be on a side branch. */
  private List<Byte32> locatorFrom(Header header) {
    Deque<Byte32> branch = new ArrayDeque<>();
    Header cursor = header;
    while (!store.mainHash(cursor.number()).map(cursor.hash()::equals).orElse(false)) {
      branch.addFirst(cursor.hash());
      Optional<StoredHeader> parent = store.get(cursor.number() - 1, cursor.parentHash());
      if (parent.isEmpty()) {
        break;
      }
      cursor = parent.get().header();
    }
    long branchStart = header.number() - branch.size() + 1;
    List<Byte32> onBranch = new ArrayList<>(branch);
    return Locator.build(header.number(),
        n -> n >= branchStart ? onBranch.get((int) (n - branchStart)) : mainHash(n),
        base.number(), consensus.genesisHash());
  }

  /** Stores the new headers and moves the main chain if one of them outweighs the tip; atomic. */
  private boolean store(List<StoredHeader> fresh, Tip before) throws IOException {
    if (fresh.isEmpty()) {
      return false;
    }
    StoredHeader last = fresh.get(fresh.size() - 1);
    boolean moves = last.totalDifficulty().compareTo(before.totalDifficulty()) > 0;
    long changedFrom = 0;
    try (HeaderStore.Batch batch = store.batch()) {
      fresh.forEach(batch::put);
      if (moves) {
        changedFrom = new MainChainSwitch(store, batch).to(fresh, before);
      }
      batch.commit();
    }
    if (moves) {
      recent.update(changedFrom, last.number(), base.number(), this::mainHash);
    }
    return moves;
  }

  /** The stored chain a batch's first header extends: its parent, the work to it, the median window. */
  private Branch branchBelow(Header first) throws HeaderException {
    Byte32 parentHash = first.parentHash();
    Optional<StoredHeader> parent = store.get(first.number() - 1, parentHash);
    if (parent.isEmpty()) {
      if (!parentHash.equals(base.hash())) {
        throw new HeaderException(HeaderRule.UNKNOWN_PARENT, first, "parent " + parentHash + " is not held");
      }
      return new Branch(null, base.hash(), base.number(), BigInteger.ZERO, new MedianTimeWindow());
    }
    Deque<Long> timestamps = new ArrayDeque<>();
    Optional<StoredHeader> cursor = parent;
    while (cursor.isPresent() && timestamps.size() < Consensus.MEDIAN_TIME_BLOCK_COUNT) {
      timestamps.addFirst(cursor.get().header().timestamp());
      StoredHeader at = cursor.get();
      cursor = at.number() == base.number() ? Optional.empty() : store.get(at.number() - 1, at.header().parentHash());
    }
    MedianTimeWindow window = MedianTimeWindow.of(timestamps.stream().mapToLong(Long::longValue).toArray());
    StoredHeader p = parent.get();
    return new Branch(p.header(), p.hash(), p.number(), p.totalDifficulty(), window);
  }

  /** A header's work: its difficulty, or zero for a compact target no PoW could meet (Dummy chains). */
  static BigInteger difficulty(Header header) {
    int compact = header.compactTarget();
    return CompactTarget.isValid(compact) ? CompactTarget.toDifficulty(compact) : BigInteger.ZERO;
  }

  /** The end of the chain a batch is being checked against; moves along as headers pass. */
  private final class Branch {
    private Header parent;
    private Byte32 parentHash;
    private long parentNumber;
    private BigInteger totalDifficulty;
    private final MedianTimeWindow window;

    Branch(Header parent, Byte32 parentHash, long parentNumber, BigInteger totalDifficulty, MedianTimeWindow window) {
      this.parent = parent;
      this.parentHash = parentHash;
      this.parentNumber = parentNumber;
      this.totalDifficulty = totalDifficulty;
      this.window = window;
    }

    void verify(Header header) throws HeaderException {
      if (parent == null) {
        verifier.verifyAfter(header, parentHash, parentNumber);
      } else {
        verifier.verify(header, parent, window.median());
      }
    }

    void extend(StoredHeader next) throws HeaderException {
      if (!next.header().parentHash().equals(parentHash)) {
        throw new HeaderException(HeaderRule.PARENT, next.header(), "not the child of " + parentHash);
      }
      parent = next.header();
      parentHash = next.hash();
      parentNumber = next.number();
      totalDifficulty = next.totalDifficulty();
      window.push(next.header().timestamp());
    }
  }
}
