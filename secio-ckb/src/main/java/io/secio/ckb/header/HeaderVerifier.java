package io.secio.ckb.header;

import java.time.Clock;
import java.util.Objects;

/**
 * Checks a header against its parent as a CKB node's header sync does, from headers alone: version
 * 0, parent hash, number, epoch well formed and the parent's successor, the same compact target
 * within an epoch, a timestamp later than the median of the previous 37 blocks and at most 15 s
 * ahead of the clock, and the network's PoW. Cheap checks come first, PoW last.
 *
 * <p>What this cannot check: the compact target and length a new epoch starts with (CKB derives
 * them from the previous epoch's uncle count, which is in block bodies), and anything about the
 * block's transactions. See {@code docs/CKB.md}, "What header verification proves".
 *
 * <p>Immutable and thread-safe (the clock is read on each call).
 */
public final class HeaderVerifier {
  private final Consensus consensus;
  private final Clock clock;

  /**
   * A verifier for {@code consensus}'s network reading the time from {@code clock}.
   *
   * @param consensus the network's rules
   * @param clock the local clock, for the future-timestamp bound
   */
  public HeaderVerifier(Consensus consensus, Clock clock) {
    this.consensus = Objects.requireNonNull(consensus, "consensus");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The network's rules. */
  public Consensus consensus() {
    return consensus;
  }

  /**
   * Checks {@code header} as the child of {@code parent}.
   *
   * @param header the header
   * @param parent the header it extends
   * @param medianTime the median timestamp of {@code parent} and its up to 36 ancestors
   * @throws HeaderException naming the first rule it breaks
   */
  public void verify(Header header, Header parent, long medianTime) throws HeaderException {
    verifyLinkage(header, parent.hash(), parent.number());
    verifyEpoch(header, parent);
    verifyTimestamp(header, medianTime);
    verifyPow(header);
  }

  /**
   * Checks {@code header} as the child of a block known only by hash and number (a checkpoint
   * given without its header): what cannot be checked is epoch continuity, the compact target
   * against the parent's, and the median time.
   *
   * @param header the header
   * @param parentHash the parent's hash
   * @param parentNumber the parent's number
   * @throws HeaderException naming the first rule it breaks
   */
  public void verifyAfter(Header header, Byte32 parentHash, long parentNumber) throws HeaderException {
    verifyLinkage(header, parentHash, parentNumber);
    if (!header.epoch().isWellFormed()) {
      throw new HeaderException(HeaderRule.EPOCH_MALFORMED, header, "epoch " + header.epoch());
    }
    verifyNotTooNew(header);
    verifyPow(header);
  }

  /**
   * Checks that {@code header} is this network's genesis header: number 0 and the genesis hash.
   *
   * @param header the header
   * @throws HeaderException with {@link HeaderRule#GENESIS} if it is not
   */
  public void verifyGenesis(Header header) throws HeaderException {
    if (header.number() != 0 || !header.hash().equals(consensus.genesisHash())) {
      throw new HeaderException(HeaderRule.GENESIS, header,
          "not the genesis of " + consensus.network() + " (" + consensus.genesisHash() + ")");
    }
  }

  /**
   * Checks the header's proof of work under the network's rule, and that its compact target is
   * usable (unless the rule is Dummy).
   *
   * @param header the header
   * @throws HeaderException with {@link HeaderRule#COMPACT_TARGET_INVALID} or {@link HeaderRule#POW}
   */
  public void verifyPow(Header header) throws HeaderException {
    if (consensus.pow() != Pow.DUMMY && !CompactTarget.isValid(header.compactTarget())) {
      throw new HeaderException(HeaderRule.COMPACT_TARGET_INVALID, header,
          "compact target 0x" + Integer.toHexString(header.compactTarget()));
    }
    if (!consensus.pow().verify(header)) {
      throw new HeaderException(HeaderRule.POW, header,
          "nonce " + header.nonce().toString(16) + " is no " + consensus.pow().specName() + " proof of work");
    }
  }

  private static void verifyLinkage(Header header, Byte32 parentHash, long parentNumber)
      throws HeaderException {
    if (header.version() != 0) {
      throw new HeaderException(HeaderRule.VERSION, header, "version " + header.version());
    }
    if (!header.parentHash().equals(parentHash)) {
      throw new HeaderException(HeaderRule.PARENT, header,
          "parent hash " + header.parentHash() + ", not " + parentHash);
    }
    if (header.number() != parentNumber + 1) {
      throw new HeaderException(HeaderRule.NUMBER, header,
          "parent #" + Long.toUnsignedString(parentNumber));
    }
  }

  private static void verifyEpoch(Header header, Header parent) throws HeaderException {
    EpochNumberWithFraction epoch = header.epoch();
    EpochNumberWithFraction parentEpoch = parent.epoch();
    if (!epoch.isWellFormed()) {
      throw new HeaderException(HeaderRule.EPOCH_MALFORMED, header, "epoch " + epoch);
    }
    // After genesis (epoch 0(0/0)) CKB accepts any well-formed epoch, as here.
    if (!parentEpoch.isGenesis() && !epoch.isSuccessorOf(parentEpoch)) {
      throw new HeaderException(HeaderRule.EPOCH_NOT_SUCCESSOR, header,
          "epoch " + epoch + " after " + parentEpoch);
    }
    if (epoch.number() == parentEpoch.number() && header.compactTarget() != parent.compactTarget()) {
      throw new HeaderException(HeaderRule.COMPACT_TARGET_CHANGED, header,
          "compact target 0x" + Integer.toHexString(header.compactTarget()) + " in epoch " + epoch.number()
              + " of compact target 0x" + Integer.toHexString(parent.compactTarget()));
    }
  }

  private void verifyTimestamp(Header header, long medianTime) throws HeaderException {
    if (Long.compareUnsigned(header.timestamp(), medianTime) <= 0) {
      throw new HeaderException(HeaderRule.TIMESTAMP_TOO_OLD, header,
          "timestamp " + Long.toUnsignedString(header.timestamp()) + " is not after the median "
              + Long.toUnsignedString(medianTime) + " of the previous blocks");
    }
    verifyNotTooNew(header);
  }

  private void verifyNotTooNew(Header header) throws HeaderException {
    long latest = clock.millis() + Consensus.ALLOWED_FUTURE_MILLIS;
    if (Long.compareUnsigned(header.timestamp(), latest) > 0) {
      throw new HeaderException(HeaderRule.TIMESTAMP_TOO_NEW, header,
          "timestamp " + Long.toUnsignedString(header.timestamp()) + " is after " + latest);
    }
  }
}
