package io.secio.ckb.header;

import io.secio.ckb.CkbNetwork;
import java.util.Objects;

/**
 * What a network's chain spec says about headers, as far as headers alone can be checked: its
 * genesis hash, its PoW rule, and the epoch from which every header's extension commits to the
 * chain root (RFC 0044, the light client's {@code mmr_activated_epoch}). The timestamp rules are
 * CKB's and the same everywhere: later than the median of the previous 37 blocks, at most 15 s
 * ahead of the local clock.
 *
 * <p>Immutable and thread-safe.
 */
public final class Consensus {
  /** How many blocks, the parent included, the median time is taken over. */
  public static final int MEDIAN_TIME_BLOCK_COUNT = 37;
  /** How far ahead of the local clock a header's timestamp may be. */
  public static final long ALLOWED_FUTURE_MILLIS = 15_000;
  /** Mainnet's chain-root activation epoch ({@code util/constant/src/softfork/mainnet.rs}). */
  public static final long MAINNET_CHAIN_ROOT_EPOCH = 8651;
  /** Testnet's chain-root activation epoch ({@code util/constant/src/softfork/testnet.rs}). */
  public static final long TESTNET_CHAIN_ROOT_EPOCH = 5711;

  private final CkbNetwork network;
  private final Pow pow;
  private final long chainRootEpoch;
  private final Byte32 genesisHash;

  private Consensus(CkbNetwork network, Pow pow, long chainRootEpoch) {
    this.network = network;
    this.pow = pow;
    this.chainRootEpoch = chainRootEpoch;
    this.genesisHash = Byte32.of(network.genesisHash());
  }

  /**
   * The rules of {@code network}: Eaglesong and epoch 8651 for mainnet, EaglesongBlake2b and epoch
   * 5711 for testnet, and for a dev network the Dummy PoW and epoch 0 (what the light client
   * assumes of any other chain; see {@link #dev} for a dev spec with real PoW).
   *
   * @param network the network
   * @return its rules
   */
  public static Consensus of(CkbNetwork network) {
    Objects.requireNonNull(network, "network");
    if (network.equals(CkbNetwork.MAINNET)) {
      return new Consensus(network, Pow.EAGLESONG, MAINNET_CHAIN_ROOT_EPOCH);
    }
    if (network.equals(CkbNetwork.TESTNET)) {
      return new Consensus(network, Pow.EAGLESONG_BLAKE2B, TESTNET_CHAIN_ROOT_EPOCH);
    }
    return new Consensus(network, Pow.DUMMY, 0);
  }

  /**
   * The rules of a dev network whose spec names its own PoW rule ({@code [pow] func}).
   *
   * @param network a dev network
   * @param pow its spec's PoW rule
   * @return its rules, with chain-root activation at epoch 0
   * @throws IllegalArgumentException for mainnet or testnet, whose rules are fixed
   */
  public static Consensus dev(CkbNetwork network, Pow pow) {
    Objects.requireNonNull(network, "network");
    Objects.requireNonNull(pow, "pow");
    if (network.isPublic()) {
      throw new IllegalArgumentException(network + " has fixed rules; use Consensus.of");
    }
    return new Consensus(network, pow, 0);
  }

  /** The network. */
  public CkbNetwork network() {
    return network;
  }

  /** The PoW rule. */
  public Pow pow() {
    return pow;
  }

  /** The genesis block's hash. */
  public Byte32 genesisHash() {
    return genesisHash;
  }

  /**
   * The epoch after whose first block every header's extension starts with the hash of its
   * parent's chain root.
   */
  public long chainRootEpoch() {
    return chainRootEpoch;
  }

  /**
   * Whether a header in {@code epoch} commits to a chain root: its epoch is after
   * (activation, 0/1), that is a later epoch, or the activation epoch past its first block.
   *
   * @param epoch the header's epoch
   * @return whether its extension must start with ckbhash(parent chain root)
   */
  public boolean hasChainRoot(EpochNumberWithFraction epoch) {
    return epoch.number() > chainRootEpoch || (epoch.number() == chainRootEpoch && epoch.index() > 0);
  }

  @Override
  public String toString() {
    return network + " (" + pow.specName() + ")";
  }
}
