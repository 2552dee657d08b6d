package io.secio.ckb.store;

import io.secio.ckb.header.Byte32;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.MVStoreException;
import org.h2.mvstore.type.ByteArrayDataType;
import org.h2.mvstore.type.LongDataType;
import org.h2.mvstore.type.StringDataType;

/**
 * Headers on disk, in one H2 MVStore file (an embedded, append-only B-tree store in pure Java): every
 * header with its total difficulty, keyed by number then hash, the main chain by number, the tip,
 * and where the chain starts. Every key starts with a block number, so a sync appends at the right
 * edge of each tree and a commit rewrites few pages; there is deliberately no index by hash alone
 * (a random-keyed B-tree rewrites most of its pages at every commit).
 *
 * <p>Writes go in {@link Batch}es: a batch is committed as one new store version and forced to
 * disk, so after a crash the file holds every committed batch whole and nothing of a batch that was
 * not committed. Nothing is written outside a batch (auto-commit is off).
 *
 * <p>Memory is bounded by the page cache ({@code cacheMegabytes}) plus the pages a batch changes.
 * One file belongs to one network: opening it for another genesis fails.
 *
 * <p>Not thread-safe: one owner (the follower) reads and writes it.
 */
public final class HeaderStore implements AutoCloseable {
  /** The page cache when none is given. */
  public static final int DEFAULT_CACHE_MEGABYTES = 16;

  private static final String GENESIS = "genesis";
  private static final String TIP = "tip";
  private static final String BASE = "base";

  private final MVStore store;
  private final MVMap<byte[], byte[]> headers;
  private final MVMap<Long, byte[]> main;
  private final MVMap<String, byte[]> meta;

  private HeaderStore(MVStore store) {
    this.store = store;
    this.headers = store.openMap("headers", new MVMap.Builder<byte[], byte[]>()
        .keyType(ByteArrayDataType.INSTANCE).valueType(ByteArrayDataType.INSTANCE));
    this.main = store.openMap("main", new MVMap.Builder<Long, byte[]>()
        .keyType(LongDataType.INSTANCE).valueType(ByteArrayDataType.INSTANCE));
    this.meta = store.openMap("meta", new MVMap.Builder<String, byte[]>()
        .keyType(StringDataType.INSTANCE).valueType(ByteArrayDataType.INSTANCE));
  }

  /**
   * Opens (or creates) the store in {@code file} for the network whose genesis is {@code genesisHash}.
   *
   * @param file the store's file
   * @param genesisHash the network's genesis hash
   * @param cacheMegabytes the page cache's bound
   * @return the store
   * @throws IOException if the file cannot be opened, or holds another network's headers
   */
  public static HeaderStore open(Path file, Byte32 genesisHash, int cacheMegabytes) throws IOException {
    Objects.requireNonNull(genesisHash, "genesisHash");
    if (cacheMegabytes < 1) {
      throw new IllegalArgumentException("a cache of at least 1 MiB, not " + cacheMegabytes);
    }
    MVStore mv;
    try {
      mv = new MVStore.Builder()
          .fileName(file.toString())
          .cacheSize(cacheMegabytes)
          .autoCommitDisabled()
          .open();
    } catch (MVStoreException e) {
      throw new IOException("cannot open the header store " + file + ": " + e.getMessage(), e);
    }
    HeaderStore store = new HeaderStore(mv);
    byte[] stored = store.meta.get(GENESIS);
    if (stored == null) {
      try (Batch batch = store.batch()) {
        store.meta.put(GENESIS, genesisHash.toBytes());
        batch.commit();
      }
    } else if (!Byte32.of(stored).equals(genesisHash)) {
      mv.closeImmediately();
      throw new IOException(file + " holds the headers of the network with genesis " + Byte32.of(stored));
    }
    return store;
  }

  /**
   * The header numbered {@code number} with {@code hash}, on any branch, if held.
   *
   * @param number the block number
   * @param hash the block hash
   * @return the header and its total difficulty
   */
  public Optional<StoredHeader> get(long number, Byte32 hash) {
    byte[] value = read(() -> headers.get(key(number, hash)));
    return value == null ? Optional.empty() : Optional.of(StoredHeader.decode(value));
  }

  /**
   * Whether the header numbered {@code number} with {@code hash} is held.
   *
   * @param number the block number
   * @param hash the block hash
   * @return whether it is
   */
  public boolean contains(long number, Byte32 hash) {
    return read(() -> headers.containsKey(key(number, hash)));
  }

  /** Number (big-endian, so keys sort by number) then hash. */
  private static byte[] key(long number, Byte32 hash) {
    byte[] key = new byte[Long.BYTES + Byte32.SIZE_IN_BYTES];
    ByteBuffer.wrap(key).putLong(number);
    hash.copyTo(key, Long.BYTES);
    return key;
  }

  /**
   * The hash of the main chain's block {@code number}, if the main chain has it.
   *
   * @param number the block number
   * @return the hash
   */
  public Optional<Byte32> mainHash(long number) {
    byte[] value = read(() -> main.get(number));
    return value == null ? Optional.empty() : Optional.of(Byte32.of(value));
  }

  /** The main chain's last block, once the store has started. */
  public Optional<BlockId> tip() {
    return meta(TIP).map(HeaderStore::blockId);
  }

  /** Where the store's chain starts: genesis or a checkpoint. */
  public Optional<BlockId> base() {
    return meta(BASE).map(HeaderStore::blockId);
  }

  private static BlockId blockId(byte[] value) {
    return new BlockId(Byte32.of(value, Long.BYTES), ByteBuffer.wrap(value).getLong());
  }

  private static byte[] value(BlockId block) {
    return key(block.number(), block.hash());
  }

  /** How many headers it holds, on every branch. */
  public long headerCount() {
    return read(headers::sizeAsLong);
  }

  /** How many bytes the file takes now. */
  public long fileSize() {
    return read(() -> store.getFileStore().size());
  }

  private Optional<byte[]> meta(String key) {
    return Optional.ofNullable(read(() -> meta.get(key)));
  }

  /** Starts a batch of writes; nothing is kept unless it is committed. */
  public Batch batch() {
    return new Batch();
  }

  /** Writes that become durable together, at {@link #commit}, or not at all. */
  public final class Batch implements AutoCloseable {
    private boolean done;

    private Batch() {}

    /**
     * Keeps a header.
     *
     * @param header the header and its total difficulty
     * @return this
     */
    public Batch put(StoredHeader header) {
      headers.put(key(header.number(), header.hash()), header.encode());
      return this;
    }

    /**
     * Makes {@code hash} the main chain's block {@code number}.
     *
     * @param number the block number
     * @param hash its hash
     * @return this
     */
    public Batch setMain(long number, Byte32 hash) {
      main.put(number, hash.toBytes());
      return this;
    }

    /**
     * Drops the main chain's block {@code number} (a shorter branch became the main chain).
     *
     * @param number the block number
     * @return this
     */
    public Batch removeMain(long number) {
      main.remove(number);
      return this;
    }

    /**
     * Sets the main chain's last block.
     *
     * @param tip the block
     * @return this
     */
    public Batch setTip(BlockId tip) {
      meta.put(TIP, value(tip));
      return this;
    }

    /**
     * Sets where the chain starts.
     *
     * @param base the block
     * @return this
     */
    public Batch setBase(BlockId base) {
      meta.put(BASE, value(base));
      return this;
    }

    /**
     * Writes the batch as one store version and forces it to disk.
     *
     * @throws IOException if it cannot be written; nothing of it is kept then
     */
    public void commit() throws IOException {
      try {
        store.commit();
        store.sync();
        done = true;
      } catch (MVStoreException e) {
        throw new IOException("cannot commit to the header store: " + e.getMessage(), e);
      }
    }

    /** Drops what was not committed. */
    @Override
    public void close() {
      if (!done) {
        done = true;
        store.rollback();
      }
    }
  }

  /** Writes what is committed and closes the file. */
  @Override
  public void close() {
    store.close();
  }

  private static <T> T read(Supplier<T> read) {
    try {
      return read.get();
    } catch (MVStoreException e) {
      throw new UncheckedIOException(new IOException("cannot read the header store: " + e.getMessage(), e));
    }
  }
}
